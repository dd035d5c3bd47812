#!/usr/bin/env bash
# Summarizes a job's traces on a Slurm cluster and merges the summaries: a job array (the map),
# then the merge tree, each level submitted with --dependency=afterok on the one before, the last
# writing JOBDIR/job.pfs and the reports. Prints the job ids. README.md explains the sizing.
#
# Usage: submit.sh [OPTIONS] -o JOBDIR TRACE_OR_DIR...
#   -o, --output DIR       the shared directory for everything the jobs write (absent or empty;
#                          on a filesystem every compute node sees)
#   --files-per-task N     traces per array task (default 1; raised when the array would pass
#                          the cluster's MaxArraySize)
#   --group N              summaries per merge (default 64)
#   --max-running N        array tasks running at once (sbatch --array=...%N)
#   --reports "R ..."      reports the last merge writes, `profana R job.pfs` each
#                          (default "table kernels steps collectives")
#   --cpus N               CPUs per array task (default 1; the import of a large trace runs on
#                          several)
#   --mem SIZE, --time T   per array task (sbatch --mem, --time); default: the partition's
#   --merge-mem SIZE, --merge-time T   per merge job; default: the partition's
#   --sbatch-arg ARG       one more sbatch option for every job (repeat it), e.g.
#                          --sbatch-arg=--account=proj --sbatch-arg=--partition=cpu
#   --wait                 wait until the last job has ended; exit 0 when job.pfs and every
#                          report were written, 1 otherwise (with the failed tasks named)
#   --poll SECONDS         how often --wait asks squeue (default 10)
# PROFANA names the profana binary (default: profana on PATH); it must be where the compute nodes
# see it. sbatch's own SBATCH_* variables (SBATCH_PARTITION, SBATCH_ACCOUNT, ...) apply as usual.
# A TRACE_OR_DIR directory stands for the traces in it (list-traces.sh says which).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage() {
  sed -n '/^# Usage:/,/^# A TRACE_OR_DIR/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 0
}
die() {
  echo "submit.sh: $*" >&2
  exit 2
}

jobdir="" files_per_task=1 group=64 max_running="" reports="table kernels steps collectives"
task_opts=() merge_opts=() common=() wait=0 poll=10 inputs=()
while [ $# -gt 0 ]; do
  case $1 in
    -o | --output) jobdir=${2:?}; shift ;;
    --output=*) jobdir=${1#*=} ;;
    --files-per-task) files_per_task=${2:?}; shift ;;
    --files-per-task=*) files_per_task=${1#*=} ;;
    --group) group=${2:?}; shift ;;
    --group=*) group=${1#*=} ;;
    --max-running) max_running=${2:?}; shift ;;
    --max-running=*) max_running=${1#*=} ;;
    --reports) reports=${2?}; shift ;;
    --reports=*) reports=${1#*=} ;;
    --cpus) task_opts+=("--cpus-per-task=${2:?}"); shift ;;
    --cpus=*) task_opts+=("--cpus-per-task=${1#*=}") ;;
    --mem) task_opts+=("--mem=${2:?}"); shift ;;
    --mem=*) task_opts+=("--mem=${1#*=}") ;;
    --time) task_opts+=("--time=${2:?}"); shift ;;
    --time=*) task_opts+=("--time=${1#*=}") ;;
    --merge-mem) merge_opts+=("--mem=${2:?}"); shift ;;
    --merge-mem=*) merge_opts+=("--mem=${1#*=}") ;;
    --merge-time) merge_opts+=("--time=${2:?}"); shift ;;
    --merge-time=*) merge_opts+=("--time=${1#*=}") ;;
    --sbatch-arg) common+=("${2:?}"); shift ;;
    --sbatch-arg=*) common+=("${1#*=}") ;;
    --wait) wait=1 ;;
    --poll) poll=${2:?}; shift ;;
    --poll=*) poll=${1#*=} ;;
    -h | --help) usage ;;
    --) shift; inputs+=("$@"); break ;;
    -*) die "unknown option $1 (--help lists them)" ;;
    *) inputs+=("$1") ;;
  esac
  shift
done
[ -n "$jobdir" ] || die "-o JOBDIR is required (--help)"
[ ${#inputs[@]} -gt 0 ] || die "no traces given (--help)"
for n in "$files_per_task" "$group" ${max_running:+"$max_running"}; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || die "expected a positive number, got '$n'"
done
((group >= 2)) || die "--group must be at least 2"
profana=$(command -v "${PROFANA:-profana}") || die "profana not found (set PROFANA=/path/to/it)"
profana=$(realpath -- "$profana")
command -v sbatch > /dev/null || die "sbatch not found: run this on a Slurm login node"

# The shared directory: traces.txt, job.conf, and the folders the jobs write into.
mkdir -p "$jobdir"
jobdir=$(realpath -- "$jobdir")
[ -z "$(ls -A "$jobdir")" ] || die "$jobdir is not empty (each run needs its own directory)"
mkdir -p "$jobdir"/{summaries,logs}
"$here/list-traces.sh" "${inputs[@]}" > "$jobdir/traces.txt"
traces=$(wc -l < "$jobdir/traces.txt")

# Size the array: TASKS = ceil(traces / files per task), within the cluster's MaxArraySize (the
# highest index is MaxArraySize - 1).
max_array=$(scontrol show config 2> /dev/null | awk '$1 == "MaxArraySize" { print $3 }')
max_array=${max_array:-1001}
while (((traces + files_per_task - 1) / files_per_task > max_array)); do
  files_per_task=$(((traces + max_array - 1) / max_array))
done
tasks=$(((traces + files_per_task - 1) / files_per_task))
{
  echo "# Written by submit.sh; read by summarize.sbatch and merge.sbatch."
  printf 'PROFANA=%q\nFILES_PER_TASK=%q\nTASKS=%q\nGROUP=%q\nREPORTS=%q\n' \
    "$profana" "$files_per_task" "$tasks" "$group" "$reports"
} > "$jobdir/job.conf"

submit() { # prints the job id (sbatch --parsable prints "id" or "id;cluster")
  local id
  id=$(sbatch --parsable "$@") || die "sbatch failed: sbatch $*"
  echo "${id%%;*}"
}

array=${max_running:+%$max_running}
summarize_id=$(submit --array="0-$((tasks - 1))$array" \
  --output="$jobdir/logs/summarize-%A_%a.out" \
  ${common[@]+"${common[@]}"} ${task_opts[@]+"${task_opts[@]}"} \
  "$here/summarize.sbatch" "$jobdir")
echo "summarize: job $summarize_id, $tasks array task(s), $files_per_task trace(s) each," \
  "$traces trace(s) in all"
ids=("$summarize_id")

# The merge tree: level L has ceil(files below / GROUP) groups; the first level with one group
# is the last. --kill-on-invalid-dep: when a task below fails, the merge is cancelled at once
# rather than left pending forever.
level=1 below=$tasks after=$summarize_id
while :; do
  groups=$(((below + group - 1) / group))
  if ((groups > 1)); then
    shape=(--array="0-$((groups - 1))" --output="$jobdir/logs/merge-$level-%A_%a.out")
  else
    shape=(--output="$jobdir/logs/merge-$level-%j.out")
  fi
  id=$(submit --dependency="afterok:$after" --kill-on-invalid-dep=yes \
    --job-name="profana-merge-$level" "${shape[@]}" \
    ${common[@]+"${common[@]}"} ${merge_opts[@]+"${merge_opts[@]}"} \
    "$here/merge.sbatch" "$jobdir" "$level")
  ids+=("$id")
  if ((groups > 1)); then
    echo "merge level $level: job $id, $groups array task(s) of up to $group summaries," \
      "after $after"
  else
    echo "merge level $level: job $id, the last: $jobdir/job.pfs and reports/, after $after"
    break
  fi
  level=$((level + 1)) below=$groups after=$id
done
echo "${ids[*]}" > "$jobdir/jobids"
echo "job ids: ${ids[*]} (also in $jobdir/jobids; logs in $jobdir/logs)"
((wait)) || exit 0

# --wait: until none of the jobs is queued or running (squeue says "Invalid job id" for a job
# that ended long ago; any other squeue error is taken as a busy controller: ask again).
pending=("${ids[@]}")
while [ ${#pending[@]} -gt 0 ]; do
  still=()
  for id in "${pending[@]}"; do
    if out=$(squeue -h -o %i -j "$id" 2>&1); then
      [ -z "$out" ] || still+=("$id")
    else
      [[ $out == *"Invalid job id"* ]] || still+=("$id")
    fi
  done
  pending=(${still[@]+"${still[@]}"})
  [ ${#pending[@]} -eq 0 ] || sleep "$poll"
done
missing=()
[ -s "$jobdir/job.pfs" ] || missing+=("$jobdir/job.pfs")
for report in $reports; do
  [ -s "$jobdir/reports/$report.txt" ] || missing+=("$jobdir/reports/$report.txt")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "done: $jobdir/job.pfs, reports in $jobdir/reports"
  exit 0
fi
echo "submit.sh: the jobs ended without writing ${missing[*]}" >&2
# What scontrol still remembers (finished jobs stay MinJobAge seconds, 300 by default), with the
# last lines of a failed task's log.
for id in "${ids[@]}"; do
  scontrol show job -o "$id" 2> /dev/null |
    awk '!/JobState=COMPLETED/ {
           for (i = 1; i <= NF; i++) {
             split($i, kv, "=")
             v[kv[1]] = substr($i, length(kv[1]) + 2)
           }
           id = v["ArrayJobId"] != "" ? v["ArrayJobId"] "_" v["ArrayTaskId"] : v["JobId"]
           print id, v["JobState"], v["Reason"]
           delete v
         }' |
    while read -r job state reason; do
      echo "  job $job: $state ($reason)" >&2
      [ "$state" = FAILED ] || [ "$state" = TIMEOUT ] || [ "$state" = OUT_OF_MEMORY ] || continue
      for log in "$jobdir"/logs/*-"$job".out; do
        [ -f "$log" ] && tail -n 2 "$log" | sed 's/^/    /' >&2
      done
    done
done
echo "  logs: $jobdir/logs" >&2
exit 1
