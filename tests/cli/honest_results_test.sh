#!/usr/bin/env bash
# Empty results are said, never printed as empty tables: a filter that keeps nothing is exit 2
# with what the trace has; an empty trace says so; a device-time sort without device time notes
# it; memory without [memory] records exits 0 with the same note in every format.
# Usage: honest_results_test.sh PROFANA TESTDATA
set -euo pipefail
profana=$1 data=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The DLRM rank 0 trace: two Python threads, streams 22, 7, 24 and 84 of device 0, 2459 events
# with 252 distinct names, from 118 to 14622 us after the trace's start.
trace=$data/traces/param/dlrm_kineto/worker0_step_12.1694128201545.pt.trace.json.gz
expect_error() {  # expect_error MESSAGE ARGS...: exit 2, nothing on stdout, one error line
  local want=$1; shift
  set +e
  "$profana" "$@" > "$tmp/out" 2> "$tmp/err"; local rc=$?
  set -e
  [[ $rc == 2 ]] || fail "$*: exit $rc, expected 2"
  [[ ! -s "$tmp/out" ]] || fail "$*: printed $(head -1 "$tmp/out")"
  [[ "$(cat "$tmp/err")" == "profana: error: $trace: $want" ]] ||
    fail "$*: said '$(cat "$tmp/err")', expected '$want'"
}
expect_error '--thread python selects no thread: the trace has threads 59976 "thread 59976 (python3)", 59811 "thread 59811 (python3)"' \
  table "$trace" --thread python
expect_error '--name "nonexistent" matches no event name: the trace has 2459 events with 252 distinct names' \
  table "$trace" --name nonexistent
expect_error '--stream 99 selects no stream: the trace has device streams 22, 7, 24, 84' \
  table "$trace" --stream 99
expect_error '--device 9 selects no device: the trace has device activity on device 0' \
  tree "$trace" --device 9
expect_error "--window 99999999: keeps no event: the trace's events run from 118 to 14622 us" \
  table "$trace" --window 99999999:
# memory used to print a [memory] row of NaN percentages here
expect_error '--name "nonexistent" matches no event name: the trace has 2459 events with 252 distinct names' \
  memory "$trace" --name nonexistent
expect_error 'the filters keep none of the trace'"'"'s 2459 events' table "$trace" --exclude .

# An empty trace, and one with metadata only.
echo '{"traceEvents": []}' > "$tmp/empty.json"
"$profana" table "$tmp/empty.json" > /dev/null 2> "$tmp/err"
[[ "$(cat "$tmp/err")" == "profana: $tmp/empty.json: the trace is empty: it holds no events" ]] ||
  fail "empty trace: $(cat "$tmp/err")"
echo '{"traceEvents": [{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "x"}}]}' \
  > "$tmp/meta.json"
"$profana" tree "$tmp/meta.json" > /dev/null 2> "$tmp/err"
[[ "$(cat "$tmp/err")" == "profana: $tmp/meta.json: the trace is empty: no duration events or [memory] records among its 1 events" ]] ||
  fail "metadata-only trace: $(cat "$tmp/err")"

# A device-time sort on a CPU-only trace (memory/categories.json has no kernels).
cpu=$data/memory/categories.json
for key in self_cuda cuda_time cuda_total self_cuda_time_total; do
  "$profana" table "$cpu" --sort $key > /dev/null 2> "$tmp/err"
  grep -qx "profana: $cpu: no device time in the trace: sorting by it keeps the rows in the order they first appear" "$tmp/err" ||
    fail "--sort $key on a CPU-only trace: '$(cat "$tmp/err")'"
done
"$profana" table "$cpu" --sort self_cpu > /dev/null 2> "$tmp/err"
[[ ! -s "$tmp/err" ]] || fail "--sort self_cpu noted: $(cat "$tmp/err")"

# memory without [memory] records: exit 0 in every format, the note on stderr (text: in the
# report), and a valid empty document. (--link pytorch: under auto this trace also gets a note
# on how its kernels were credited.)
note="the trace has no [memory] events: record it with torch.profiler.profile(profile_memory=True)"
for format in json csv timeline raw html; do
  "$profana" memory "$trace" --link pytorch --format $format -o "$tmp/mem.$format" 2> "$tmp/err" ||
    fail "memory --format $format: exit $?"
  [[ "$(cat "$tmp/err")" == "profana: $trace: $note" ]] || fail "memory $format: '$(cat "$tmp/err")'"
done
[[ "$(cat "$tmp/mem.timeline")" == "[[], []]" ]] || fail "empty timeline: $(cat "$tmp/mem.timeline")"
[[ "$(cat "$tmp/mem.raw")" == "[]" ]] || fail "empty raw timeline: $(cat "$tmp/mem.raw")"
grep -q "<title>worker0_step_12.1694128201545.pt.trace.json.gz</title>" "$tmp/mem.html" ||
  fail "html page without the file's name"
grep -qF "${note^}." "$tmp/mem.html" || fail "html page without the note"
"$profana" memory "$trace" --link pytorch > "$tmp/mem.txt" 2> "$tmp/err"
grep -qxF "${note^}." "$tmp/mem.txt" || fail "text report without the note"
[[ ! -s "$tmp/err" ]] || fail "text report also noted on stderr: $(cat "$tmp/err")"
# idle on a CPU-only trace: one line saying so, not an empty table header.
"$profana" idle "$cpu" > "$tmp/idle.txt" 2> "$tmp/err"
[[ "$(cat "$tmp/idle.txt")" == "No device activity (no kernel, memcpy or memset): there is no GPU idle time to measure." ]] ||
  fail "idle on a CPU-only trace: $(cat "$tmp/idle.txt")"
[[ ! -s "$tmp/err" ]] || fail "idle text also warned: $(cat "$tmp/err")"
echo "ok"
