#!/usr/bin/env bash
# Runs examples/slurm/run-local.sh (the map and merge on one machine, xargs -P, no scheduler) over
# 10 generated rank traces, one summary each and merges of 3 (a tree of 4, 2, then the last), and
# checks that the merged result equals profana run on the traces directly; then that a broken
# trace stops it with exit 1 and no job.pfs.
# Usage: local_map_merge_test.sh PROFANA REPO_ROOT
# Exit 77 (skipped) while profana has no summarize command, after the same run has passed with
# the stand-in (standin_profana.sh).
set -uo pipefail
profana=$(realpath "$1") root=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

mkdir -p "$tmp/traces"
python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
import gen_trace
for i in range(10):
    gen_trace.generate("%s/rank%d.json%s" % (sys.argv[2], i, ".gz" if i % 2 else ""), 0.01, 100 + i)
' "$root/scripts" "$tmp/traces" > /dev/null || fail "gen_trace.py"

if "$profana" summarize --help 2>&1 | grep -q '^Usage: [^ ]* summarize'; then
  mode=real
  export PROFANA=$profana
else
  mode=standin
  mkdir -p "$tmp/bin"
  printf '#!/usr/bin/env bash\nexec bash %q %q "$@"\n' \
    "$root/tests/slurm/standin_profana.sh" "$profana" > "$tmp/bin/profana"
  chmod +x "$tmp/bin/profana"
  export PROFANA=$tmp/bin/profana
fi

bash "$root/examples/slurm/run-local.sh" -j 2 --group 3 --reports table -o "$tmp/job" \
  "$tmp/traces" > "$tmp/out" 2>&1 || fail "run-local.sh: $(cat "$tmp/out")"
expected="summarize: 10 task(s), 1 trace(s) each, 10 trace(s) in all
merge level 1: 4 group(s)
merge level 2: 2 group(s)
merge level 3: 1 group(s)
done: $tmp/job/job.pfs, reports in $tmp/job/reports"
[ "$(cat "$tmp/out")" = "$expected" ] || fail "run-local.sh said: $(cat "$tmp/out")"
[ "$(find "$tmp/job/summaries" -type f | wc -l)" -eq 10 ] || fail "summaries"
[ "$(find "$tmp/job/merged/1" -type f | wc -l)" -eq 4 ] || fail "merged/1"
[ "$(find "$tmp/job/merged/2" -type f | wc -l)" -eq 2 ] || fail "merged/2"
[ -z "$(find "$tmp/job" -name '*.partial*')" ] || fail "partial files left"

if [ $mode = real ]; then
  "$profana" table "$tmp/traces" > "$tmp/direct.txt" || fail "profana table on the directory"
  "$profana" table "$tmp/job/job.pfs" | cmp -s - "$tmp/direct.txt" || fail "table of job.pfs"
  cmp -s "$tmp/direct.txt" "$tmp/job/reports/table.txt" || fail "reports/table.txt"
else
  # rank0, rank1, rank2, ... rank9 in the C locale's order: rank0.json, rank1.json.gz, ...
  mapfile -t traces < "$tmp/job/traces.txt"
  [ "${traces[1]##*/}" = rank1.json.gz ] || fail "traces.txt order: ${traces[*]}"
  for t in "${traces[@]}"; do
    echo "## ${t##*/}"
    "$profana" table --format json "$t"
  done > "$tmp/direct.json"
  cmp -s "$tmp/direct.json" "$tmp/job/job.pfs" || fail "job.pfs is not the 10 tables in order"
  { echo "report table" && cat "$tmp/direct.json"; } | cmp -s - "$tmp/job/reports/table.txt" ||
    fail "reports/table.txt"
fi

# A broken trace: run-local.sh stops after the summaries, exit 1, and names the failing step.
mkdir -p "$tmp/broken"
cp "$tmp/traces/rank0.json" "$tmp/broken/"
printf '{"traceEvents": [' > "$tmp/broken/rank1.json"
bash "$root/examples/slurm/run-local.sh" --reports table -o "$tmp/job-broken" "$tmp/broken" \
  > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "broken trace: rc $rc: $(cat "$tmp/out")"
grep -q "run-local.sh: summarize.sbatch failed; its output is in .*/logs/summarize-\*.out" \
  "$tmp/out" || fail "broken trace: $(cat "$tmp/out")"
grep -q "rank1.json" "$tmp/job-broken/logs/summarize-1.out" || fail "broken trace: no error in log"
[ ! -e "$tmp/job-broken/job.pfs" ] || fail "broken trace: job.pfs written"

echo "ok: $mode"
if [ $mode = standin ]; then
  echo "SKIP: profana has no summarize command yet: run-local.sh passed with the stand-in" \
    "(tests/slurm/standin_profana.sh); the real summaries are not checked"
  exit 77
fi
