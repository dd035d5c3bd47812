#!/usr/bin/env bash
# A stand-in for `profana summarize` and `profana merge`, used by the tests of examples/slurm
# until those commands exist, so that the scripts, the job array and the merge tree are run for
# real now. Delete this file, and the stand-in branch of the tests, once they do.
#   standin_profana.sh REAL summarize TRACE... -o OUT   "## NAME" and `REAL table --format json`
#                                                       for each trace, one after the other
#   standin_profana.sh REAL merge A B ... -o OUT         the inputs one after the other
#   standin_profana.sh REAL REPORT SUMMARY -o OUT       "report REPORT", then the summary
# A concatenation is associative like the real merge, and (with the inputs in a fixed order) the
# merged file must equal the per-trace outputs of REAL, in the order of the traces.
set -euo pipefail
real=$1 command=$2
shift 2
inputs=() out=""
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift ;;
    *) inputs+=("$1") ;;
  esac
  shift
done
[ -n "$out" ] && [ ${#inputs[@]} -gt 0 ] || {
  echo "stand-in: usage: $command INPUT... -o OUT" >&2
  exit 2
}
case $command in
  summarize)
    for trace in "${inputs[@]}"; do
      echo "## ${trace##*/}"
      "$real" table --format json "$trace"
    done > "$out"
    ;;
  merge) cat "${inputs[@]}" > "$out" ;;
  *) { echo "report $command" && cat "${inputs[@]}"; } > "$out" ;;
esac
