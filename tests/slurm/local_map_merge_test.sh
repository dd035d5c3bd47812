#!/usr/bin/env bash
# Runs examples/slurm/run-local.sh (the map and merge on one machine, xargs -P, no scheduler) over
# 10 generated rank traces of one job (an all-reduce per step, rank 9 late, clocks apart), one
# summary each and merges of 3 (a tree of 4, 2, then the last), and
# checks that the merged result equals profana run on the traces directly; then that a broken
# trace stops it with exit 1 and no job.pfs.
# Usage: local_map_merge_test.sh PROFANA REPO_ROOT
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
job = gen_trace.Job(10, 100, 9, 500)
for i in range(10):
    gen_trace.generate("%s/rank%d.json%s" % (sys.argv[2], i, ".gz" if i % 2 else ""), 0.01, 100 + i, rank=i, world_size=10, job=job)
' "$root/scripts" "$tmp/traces" > /dev/null || fail "gen_trace.py"

export PROFANA=$profana

bash "$root/examples/slurm/run-local.sh" -j 2 --group 3 --reports "table steps kernels collectives" -o "$tmp/job" \
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

# The merged summary reports what the traces report.
for report in table steps kernels collectives; do
  "$profana" $report "$tmp/traces" > "$tmp/direct.txt" || fail "profana $report on the directory"
  "$profana" $report "$tmp/job/job.pfs" | cmp -s - "$tmp/direct.txt" || fail "$report of job.pfs"
  cmp -s "$tmp/direct.txt" "$tmp/job/reports/$report.txt" || fail "reports/$report.txt"
done
# The job's collectives are there to compare: one all-reduce per step, matched on all 10 ranks.
grep -q "^Collectives: [1-9][0-9]* matched on 10 ranks (0-9)$" "$tmp/job/reports/collectives.txt" ||
  fail "collectives: $(head -n 1 "$tmp/job/reports/collectives.txt")"

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

echo "ok"
