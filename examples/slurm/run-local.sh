#!/usr/bin/env bash
# The same map and merge on one machine, without a scheduler: xargs -P runs summarize.sbatch once
# per array index and merge.sbatch once per group of each level, JOBS at a time, exactly as Slurm
# would run them. The result is the same JOBDIR layout as submit.sh's: job.pfs and reports/.
#
# Usage: run-local.sh [OPTIONS] -o JOBDIR TRACE_OR_DIR...
#   -o, --output DIR       where everything is written (absent or empty)
#   -j, --jobs N           processes at once (default: nproc)
#   --files-per-task N     traces per summary (default 1)
#   --group N              summaries per merge (default 64)
#   --reports "R ..."      reports written from job.pfs (default "table kernels steps collectives")
# PROFANA names the profana binary (default: profana on PATH).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() {
  echo "run-local.sh: $*" >&2
  exit 2
}

jobdir="" jobs=$(nproc) files_per_task=1 group=64 reports="table kernels steps collectives"
inputs=()
while [ $# -gt 0 ]; do
  case $1 in
    -o | --output) jobdir=${2:?}; shift ;;
    -j | --jobs) jobs=${2:?}; shift ;;
    --files-per-task) files_per_task=${2:?}; shift ;;
    --group) group=${2:?}; shift ;;
    --reports) reports=${2?}; shift ;;
    -h | --help)
      sed -n '/^# Usage:/,/^# PROFANA/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    --) shift; inputs+=("$@"); break ;;
    -*) die "unknown option $1 (--help lists them)" ;;
    *) inputs+=("$1") ;;
  esac
  shift
done
[ -n "$jobdir" ] || die "-o JOBDIR is required (--help)"
[ ${#inputs[@]} -gt 0 ] || die "no traces given (--help)"
for n in "$jobs" "$files_per_task" "$group"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || die "expected a positive number, got '$n'"
done
((group >= 2)) || die "--group must be at least 2"
profana=$(command -v "${PROFANA:-profana}") || die "profana not found (set PROFANA=/path/to/it)"
profana=$(realpath -- "$profana")

mkdir -p "$jobdir"
jobdir=$(realpath -- "$jobdir")
[ -z "$(ls -A "$jobdir")" ] || die "$jobdir is not empty (each run needs its own directory)"
mkdir -p "$jobdir"/{summaries,logs}
"$here/list-traces.sh" "${inputs[@]}" > "$jobdir/traces.txt"
traces=$(wc -l < "$jobdir/traces.txt")
tasks=$(((traces + files_per_task - 1) / files_per_task))
{
  echo "# Written by run-local.sh; read by summarize.sbatch and merge.sbatch."
  printf 'PROFANA=%q\nFILES_PER_TASK=%q\nTASKS=%q\nGROUP=%q\nREPORTS=%q\n' \
    "$profana" "$files_per_task" "$tasks" "$group" "$reports"
} > "$jobdir/job.conf"

# run_indexed COUNT LOG SCRIPT ARG...: `bash SCRIPT ARG...` once per index 0..COUNT-1, given as
# SLURM_ARRAY_TASK_ID, JOBS at once, each one's output in LOG-INDEX.out. Stops at a failure.
run_indexed() {
  local count=$1 log=$2
  shift 2
  seq 0 $((count - 1)) | xargs -P "$jobs" -I{} sh -c \
    'log=$1-$2.out; export SLURM_ARRAY_TASK_ID=$2; shift 2; exec bash "$@" > "$log" 2>&1' \
    sh "$log" {} "$@" || {
    echo "run-local.sh: ${1##*/} failed; its output is in $log-*.out" >&2
    exit 1
  }
}

echo "summarize: $tasks task(s), $files_per_task trace(s) each, $traces trace(s) in all"
run_indexed "$tasks" "$jobdir/logs/summarize" "$here/summarize.sbatch" "$jobdir"
level=1 below=$tasks
while :; do
  groups=$(((below + group - 1) / group))
  echo "merge level $level: $groups group(s)"
  run_indexed "$groups" "$jobdir/logs/merge-$level" "$here/merge.sbatch" "$jobdir" "$level"
  ((groups > 1)) || break
  level=$((level + 1)) below=$groups
done
echo "done: $jobdir/job.pfs, reports in $jobdir/reports"
