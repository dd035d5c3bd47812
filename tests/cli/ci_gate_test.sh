#!/usr/bin/env bash
# Runs examples/ci/profile-gate.sh the way a CI job would, on a passing and a failing budget and
# baseline, and checks the exit codes and the messages. Usage: ci_gate_test.sh PROFANA REPO_ROOT
set -uo pipefail
profana=$1 root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export PROFANA=$profana
gate=$root/examples/ci/profile-gate.sh
dlrm=$root/testdata/traces/param/dlrm_kineto
rank0=$(ls "$dlrm"/worker0_*.json.gz) rank1=$(ls "$dlrm"/worker1_*.json.gz)
fail() { echo "FAIL: $*"; exit 1; }

# A passing budget, no baseline: exit 0 and the report lists every rule as ok.
bash "$gate" "$rank0" "$root/testdata/budgets/dlrm-pass.json" > "$tmp/out" 2> "$tmp/err"
rc=$?; [ $rc -eq 0 ] || fail "passing budget: rc $rc: $(cat "$tmp/err")"
grep -q "7 rules (budget .*dlrm-pass.json), 0 failed" "$tmp/out" || fail "passing budget: no summary line"
grep -q "profile gate passed" "$tmp/out" || fail "passing budget: the script did not finish"

# A failing budget: exit 1, each failure named on stderr, the script stops at the gate.
bash "$gate" "$rank0" "$root/testdata/budgets/dlrm-fail.json" > "$tmp/out" 2> "$tmp/err"
rc=$?; [ $rc -eq 1 ] || fail "failing budget: rc $rc"
grep -q "FAIL  self_device_time per step  *6.851ms  <= 5.000ms" "$tmp/out" || fail "failing budget: rule line"
grep -q "FAIL  step_time  *14.455ms  <= 12.000ms" "$tmp/out" || fail "failing budget: step rule line"
# The report on stdout listed the failures; stderr counts them instead of listing them again.
grep -q "profana: check failed: .*worker0_.*: 2 of 3 rules failed$" "$tmp/err" \
  || fail "failing budget: stderr: $(cat "$tmp/err")"
grep -q "profile gate passed" "$tmp/out" && fail "failing budget: the script went on"

# A passing budget but a baseline that NEW is slower than: the Markdown diff is written, then exit 1.
GITHUB_STEP_SUMMARY=$tmp/summary.md bash "$gate" "$rank1" "$root/testdata/budgets/dlrm-pass.json" "$rank0" \
  > "$tmp/out" 2> "$tmp/err"
rc=$?; [ $rc -eq 1 ] || fail "baseline: rc $rc: $(cat "$tmp/err")"
grep -q "^### profana diff" "$tmp/summary.md" || fail "baseline: no Markdown summary"
grep -q "| Step time (mean) | 14.455ms | 19.901ms | +5.446ms (+37.7%) |" "$tmp/summary.md" || fail "baseline: step line"
grep -q "FAIL  self_cpu_time vs baseline  *23.768ms  <= 19.187ms" "$tmp/out" || fail "baseline: rule line: $(cat "$tmp/out")"
grep -q "profana: check failed: .*worker1_.*: 3 of 3 rules failed$" "$tmp/err" || fail "baseline: stderr: $(cat "$tmp/err")"

# A broken budget file is exit 2 (bad input), not 1, from profana; the script maps it to 1.
"$profana" check "$rank0" --budget "$root/testdata/budgets/bad-unknown-key.json" > /dev/null 2> "$tmp/err"
rc=$?; [ $rc -eq 2 ] || fail "bad budget: rc $rc"
grep -q 'bad-unknown-key.json: byte 105 (line 3, column 53): rules\[1\]: unknown key "maxx"' "$tmp/err" || fail "bad budget: $(cat "$tmp/err")"
echo "ok"
