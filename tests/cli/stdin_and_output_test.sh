#!/usr/bin/env bash
# The real binary, as a shell user runs it: "-" reads standard input (plain and gzip), -o writes
# a file, --verbose talks on stderr only, exit codes. Usage: stdin_and_output_test.sh PROFANA TESTDATA
set -euo pipefail
profana=$1 data=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

trace=$data/traces/param/dlrm_kineto/worker0_step_12.1694128201545.pt.trace.json.gz
"$profana" table "$trace" > "$tmp/file.txt"
"$profana" table - < "$trace" > "$tmp/stdin_gz.txt"
zcat "$trace" | "$profana" table - > "$tmp/stdin_plain.txt"
cmp -s "$tmp/file.txt" "$tmp/stdin_gz.txt" || fail "gzip on stdin differs from the file"
cmp -s "$tmp/file.txt" "$tmp/stdin_plain.txt" || fail "plain JSON on stdin differs from the file"

"$profana" table "$trace" -o "$tmp/out.txt" > "$tmp/stdout.txt"
cmp -s "$tmp/file.txt" "$tmp/out.txt" || fail "-o FILE differs from stdout"
[[ ! -s "$tmp/stdout.txt" ]] || fail "-o FILE also wrote to stdout"

# tree writes as it goes (to stdout, or to the -o file): the same bytes either way
"$profana" tree "$trace" > "$tmp/tree_stdout.txt"
"$profana" tree "$trace" -o "$tmp/tree_file.txt" > "$tmp/tree_none.txt"
[[ -s "$tmp/tree_stdout.txt" ]] || fail "tree wrote nothing to stdout"
cmp -s "$tmp/tree_stdout.txt" "$tmp/tree_file.txt" || fail "tree -o FILE differs from stdout"
[[ ! -s "$tmp/tree_none.txt" ]] || fail "tree -o FILE also wrote to stdout"
# On one core tree makes its text on the walk's thread, and streams of several pieces (the
# MI300X trace's text is over 1 MiB): the same bytes as on two cores, where two threads make it;
# and the streamed import's single parser thread reads the same model.
if command -v taskset > /dev/null && taskset -c 0 true 2> /dev/null; then
  big=$data/traces/tracelens/mi300/resnet_act_checkpoint.json.gz
  for t in "$trace" "$big"; do
    "$profana" tree "$t" > "$tmp/tree_cores.txt"
    taskset -c 0 "$profana" tree "$t" > "$tmp/tree_core.txt"
    cmp -s "$tmp/tree_cores.txt" "$tmp/tree_core.txt" || fail "tree on one core differs: $t"
  done
fi

"$profana" table "$trace" --verbose > "$tmp/verbose.txt" 2> "$tmp/verbose.err"
cmp -s "$tmp/file.txt" "$tmp/verbose.txt" || fail "--verbose changed stdout"
grep -q "events read in" "$tmp/verbose.err" || fail "--verbose printed no diagnostics"
# (an explicit --link: under auto a trace without recorded links gets a note on how kernels
# were credited)
"$profana" table "$trace" --link enclosing 2> "$tmp/quiet.err" > /dev/null
[[ ! -s "$tmp/quiet.err" ]] || fail "quiet by default, but stderr has: $(head -1 "$tmp/quiet.err")"

set +e
"$profana" table - < /dev/null > /dev/null 2> "$tmp/empty.err"; rc=$?
"$profana" table --sort nope "$trace" > /dev/null 2>&1; rc_usage=$?
"$profana" table "$trace" -o /nonexistent/dir/out.txt 2> "$tmp/write.err"; rc_write=$?
"$profana" tree "$trace" -o /nonexistent/dir/out.txt 2> "$tmp/tree_write.err"; rc_tree_write=$?
if [[ -w /dev/full ]]; then  # a full disk, met half way through a streamed output
  "$profana" tree "$trace" -o /dev/full 2> "$tmp/full.err"; rc_full=$?
  "$profana" tree "$trace" > /dev/full 2> "$tmp/full_stdout.err"; rc_full_stdout=$?
else
  rc_full=2 rc_full_stdout=2; echo "write failed" > "$tmp/full.err"
fi
set -e
[[ $rc == 2 ]] || fail "empty stdin: exit $rc, want 2"
grep -q "<stdin>: byte 0: empty input" "$tmp/empty.err" || fail "empty stdin message: $(cat "$tmp/empty.err")"
[[ $rc_usage == 2 ]] || fail "bad --sort: exit $rc_usage, want 2"
[[ $rc_write == 2 ]] || fail "unwritable -o: exit $rc_write, want 2"
grep -q "cannot write" "$tmp/write.err" || fail "unwritable -o message: $(cat "$tmp/write.err")"
[[ $rc_tree_write == 2 ]] || fail "tree, unwritable -o: exit $rc_tree_write, want 2"
grep -q "cannot write" "$tmp/tree_write.err" || fail "tree, unwritable -o: $(cat "$tmp/tree_write.err")"
[[ $rc_full == 2 ]] || fail "tree -o /dev/full: exit $rc_full, want 2"
grep -q "write failed" "$tmp/full.err" || fail "tree -o /dev/full: $(cat "$tmp/full.err")"
[[ $rc_full_stdout == 2 ]] || fail "tree > /dev/full: exit $rc_full_stdout, want 2"
"$profana" --help > "$tmp/help.txt"  # not piped: grep -q would close the pipe early (SIGPIPE)
grep -q "table" "$tmp/help.txt" || fail "--help does not list table"
# diff --color always paints a change red when it grew and green when it shrank (SGR 31 / 32,
# reset by SGR 0), and the colours survive the escaping of control characters; auto never paints
# an -o file (always does, as grep's and git's --color=always).
ctl=$data/traces/hta/trace_diff/control/control.json.gz
tst=$data/traces/hta/trace_diff/test/test.json.gz
"$profana" diff "$ctl" "$tst" --row-limit 3 -q --color always > "$tmp/diff_color.txt"
grep -q $'Self CPU time .*\x1b\[31m   +293.890ms (+46.0%)\x1b\[0m$' "$tmp/diff_color.txt" ||
  fail "diff --color always: no red growth in $(head -8 "$tmp/diff_color.txt" | cat -v)"
"$profana" diff "$tst" "$ctl" --row-limit 3 -q --color always > "$tmp/diff_color.txt"
grep -q $'\x1b\[32m   -293.890ms (-31.5%)\x1b\[0m$' "$tmp/diff_color.txt" ||
  fail "diff --color always: no green shrink in $(head -8 "$tmp/diff_color.txt" | cat -v)"
"$profana" diff "$ctl" "$tst" --row-limit 3 -q --color auto -o "$tmp/diff_file.txt"
! grep -q $'\x1b' "$tmp/diff_file.txt" || fail "diff -o FILE has colour codes"
echo "1 passed, 0 failed"
