#!/usr/bin/env bash
# Runs examples/slurm on a real Slurm: a private single-node cluster (private_cluster.sh), 33
# generated rank traces, submit.sh with 2 traces per array task (17 tasks) and merges of 4 (a merge
# tree of three levels: 5 groups, 2, then the last), waited for with --wait; then checks every
# file the jobs wrote, the job states, and that the merged result equals profana run on the traces
# directly. A second submission with one broken trace must fail its task, cancel the merges at
# once and make submit.sh --wait exit 1.
# Usage: slurm_job_array_test.sh PROFANA REPO_ROOT
# Exit 77 (skipped) when this machine cannot run the cluster, unless PROFANA_REQUIRE_SLURM=1
# (scripts/test sets it: CI must run the cluster).
set -uo pipefail
profana=$(realpath "$1") root=$(realpath "$2")
source "$root/tests/slurm/private_cluster.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/profana-slurm-test.XXXXXX") && chmod 755 "$tmp"
trap 'cluster_stop; rm -rf "$tmp"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
t0=$(date +%s)
fail() {
  echo "FAIL: $*"
  for f in "$tmp"/submit*.out "$tmp"/job*/logs/*; do
    [ -s "$f" ] && echo "--- $f" && tail -n 5 "$f"
  done
  exit 1
}

# 33 rank traces of one job, one profiler step each (about 175 KB), an all-reduce per step (rank
# 32 late, clocks apart), every third gzipped: seeds 1..33.
mkdir -p "$tmp/traces"
python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
import gen_trace
job = gen_trace.Job(33, 1, 32, 500)
for i in range(33):
    gz = ".gz" if i % 3 == 0 else ""
    gen_trace.generate("%s/worker%d.pt.trace.json%s" % (sys.argv[2], i, gz), 0.01, i + 1, rank=i, world_size=33, job=job)
' "$root/scripts" "$tmp/traces" > /dev/null || fail "gen_trace.py"

# 8 CPUs on the node (more than the machine may have): the short tasks run 8 at a time.
if ! cluster_start "$tmp/cluster" 8; then
  [ "${PROFANA_REQUIRE_SLURM:-0}" = 1 ] && fail "no private Slurm cluster: $CLUSTER_WHY"
  echo "SKIP: no private Slurm cluster on this machine: $CLUSTER_WHY"
  exit 77
fi
echo "cluster up after $(($(date +%s) - t0)) s"

export PROFANA=$profana
reports="table steps kernels collectives"

cd "$tmp" || fail "cd $tmp"
timeout 90 bash "$root/examples/slurm/submit.sh" -o "$tmp/job" --files-per-task 2 --group 4 \
  --reports "$reports" --cpus 1 --mem 100M --time 5 --merge-mem 100M --merge-time 5 \
  --wait --poll 0.3 \
  "$tmp/traces" > "$tmp/submit.out" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "submit.sh --wait: rc $rc: $(cat "$tmp/submit.out")"
echo "jobs done after $(($(date +%s) - t0)) s"

# What submit.sh said it submitted: the array, then one job per merge level.
out=$tmp/submit.out
grep -q '^summarize: job [0-9]*, 17 array task(s), 2 trace(s) each, 33 trace(s) in all$' "$out" ||
  fail "summarize line: $(cat "$out")"
grep -q '^merge level 1: job [0-9]*, 5 array task(s) of up to 4 summaries, after [0-9]*$' "$out" ||
  fail "merge level 1 line: $(cat "$out")"
grep -q '^merge level 2: job [0-9]*, 2 array task(s) of up to 4 summaries, after [0-9]*$' "$out" ||
  fail "merge level 2 line: $(cat "$out")"
grep -q '^merge level 3: job [0-9]*, the last: .*/job.pfs and reports/, after [0-9]*$' "$out" ||
  fail "merge level 3 line: $(cat "$out")"
read -r -a ids < "$tmp/job/jobids"
[ ${#ids[@]} -eq 4 ] || fail "jobids: ${ids[*]}"
# Each level waits on the one before (afterok on the job id, the whole array).
for l in 1 2 3; do
  grep -q "^merge level $l: job ${ids[$l]},.* after ${ids[$((l - 1))]}\$" "$out" ||
    fail "level $l is not after job ${ids[$((l - 1))]}"
done

# Every task and job completed: 17 array tasks, 5 + 2 merge tasks and the last job.
states=$(for id in "${ids[@]}"; do scontrol show job -o "$id"; done | grep -o 'JobState=[A-Z]*' |
  sort | uniq -c | tr -s ' ')
[ "$states" = " 25 JobState=COMPLETED" ] || fail "job states: $states"

# The files: one summary per task, one per merge group, job.pfs, the report, one log per task and
# job, nothing half-written left behind.
count() { find "$@" -type f | wc -l; }
[ "$(count "$tmp/job/summaries")" -eq 17 ] || fail "summaries: $(ls "$tmp/job/summaries")"
[ "$(count "$tmp/job/merged/1")" -eq 5 ] || fail "merged/1: $(ls "$tmp/job/merged/1")"
[ "$(count "$tmp/job/merged/2")" -eq 2 ] || fail "merged/2: $(ls "$tmp/job/merged/2")"
[ "$(count "$tmp/job/logs")" -eq 25 ] || fail "logs: $(ls "$tmp/job/logs")"
[ -z "$(find "$tmp/job" -name '*.partial*')" ] || fail "partial files left"
[ -s "$tmp/job/job.pfs" ] || fail "no job.pfs"
[ -s "$tmp/job/reports/table.txt" ] || fail "no reports/table.txt"
[ "$(wc -l < "$tmp/job/traces.txt")" -eq 33 ] || fail "traces.txt: $(cat "$tmp/job/traces.txt")"
[ -z "$(ls "$tmp"/slurm-*.out 2> /dev/null)" ] || fail "job output outside logs/"

# The merged summary reports what the traces report.
for report in $reports; do
  "$profana" $report "$tmp/traces" > "$tmp/direct.txt" || fail "profana $report on the directory"
  "$profana" $report "$tmp/job/job.pfs" > "$tmp/merged.txt" || fail "profana $report job.pfs"
  cmp -s "$tmp/direct.txt" "$tmp/merged.txt" || fail "$report of job.pfs differs from the traces'"
  cmp -s "$tmp/direct.txt" "$tmp/job/reports/$report.txt" || fail "reports/$report.txt differs"
done

# A broken trace: its task fails, the merge is cancelled at once, --wait says so and exits 1.
mkdir -p "$tmp/broken"
cp "$tmp/traces/worker1.pt.trace.json" "$tmp/traces/worker2.pt.trace.json" "$tmp/broken/"
printf '{"traceEvents": [{"ph": "X", "name": ' > "$tmp/broken/worker3.pt.trace.json"
timeout 60 bash "$root/examples/slurm/submit.sh" -o "$tmp/job-broken" --reports "$reports" \
  --wait --poll 0.3 "$tmp/broken" > "$tmp/submit-broken.out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "broken trace: submit.sh --wait rc $rc, not 1"
read -r -a ids < "$tmp/job-broken/jobids"
grep -q "^  job ${ids[0]}_2: FAILED (NonZeroExitCode)$" "$tmp/submit-broken.out" ||
  fail "broken trace: the failed task is not named: $(cat "$tmp/submit-broken.out")"
grep -q "^    .*worker3.pt.trace.json" "$tmp/submit-broken.out" ||
  fail "broken trace: profana's error is not shown: $(cat "$tmp/submit-broken.out")"
grep -q "^  job ${ids[1]}: CANCELLED (DependencyNeverSatisfied)$" "$tmp/submit-broken.out" ||
  fail "broken trace: the merge is not cancelled: $(cat "$tmp/submit-broken.out")"
[ ! -e "$tmp/job-broken/job.pfs" ] || fail "broken trace: job.pfs written"
[ "$(count "$tmp/job-broken/summaries")" -eq 2 ] || fail "broken trace: summaries"
[ -z "$(find "$tmp/job-broken" -name '*.partial*')" ] || fail "broken trace: partial files left"

cluster_stop
echo "ok: run through Slurm in $(($(date +%s) - t0)) s"
