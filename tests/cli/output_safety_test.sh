#!/usr/bin/env bash
# Writing results safely, with the real binary: -o, --svg and convert replace a file only once the
# new one is complete (a failed write or a signal leaves the old file and no temporary file), a
# command refuses to write over its own input, and write errors on files and on standard output
# name the file and the reason. Usage: output_safety_test.sh PROFANA TESTDATA
set -euo pipefail
profana=$1 data=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# No temporary file (.NAME.XXXXXX) left in the folder.
no_leftovers() { ! ls -A "$tmp" | grep -q '^\.' || fail "$1: left $(ls -A "$tmp" | grep '^\.')"; }

trace=$tmp/t.json.gz
cp "$data/traces/param/dlrm_kineto/worker0_step_12.1694128201545.pt.trace.json.gz" "$trace"
"$profana" table -q "$trace" > "$tmp/want.txt"
[[ $(stat -c %s "$tmp/want.txt") -gt 4096 ]] || fail "the table should be over 4 KB"

# A new file: the whole result, mode 0666 less the umask. A replaced file keeps its mode.
(umask 027; "$profana" table -q "$trace" -o "$tmp/out.txt")
cmp -s "$tmp/want.txt" "$tmp/out.txt" || fail "-o FILE differs from stdout"
[[ $(stat -c %a "$tmp/out.txt") == 640 ]] || fail "new file mode $(stat -c %a "$tmp/out.txt"), want 640"
chmod 604 "$tmp/out.txt"
echo old > "$tmp/out.txt"
"$profana" table -q "$trace" -o "$tmp/out.txt"
cmp -s "$tmp/want.txt" "$tmp/out.txt" || fail "a replaced file differs from stdout"
[[ $(stat -c %a "$tmp/out.txt") == 604 ]] || fail "replaced file mode $(stat -c %a "$tmp/out.txt"), want 604"
# A link is followed: its target gets the result, the link stays a link.
echo old > "$tmp/target.txt"; ln -s target.txt "$tmp/link.txt"
"$profana" table -q "$trace" -o "$tmp/link.txt"
[[ -L "$tmp/link.txt" ]] || fail "-o through a symbolic link replaced the link"
cmp -s "$tmp/want.txt" "$tmp/target.txt" || fail "-o through a link did not write its target"
no_leftovers "after successful writes"

# A write that fails (a file size limit of 1 KB; SIGXFSZ ignored, so write() says EFBIG): exit 2,
# a message naming the file and the reason, the old file intact, no temporary file.
echo old > "$tmp/out.txt"
set +e
(trap '' XFSZ; ulimit -f 1; "$profana" table -q "$trace" -o "$tmp/out.txt") 2> "$tmp/efbig.err"; rc=$?
set -e
[[ $rc == 2 ]] || fail "failed write: exit $rc, want 2"
grep -q "out.txt: write failed: File too large" "$tmp/efbig.err" || fail "failed write message: $(cat "$tmp/efbig.err")"
[[ $(cat "$tmp/out.txt") == old ]] || fail "a failed write changed the old file"
no_leftovers "after a failed write"
# The same limit with SIGXFSZ at its default: the signal ends profana mid-write; its handler
# removes the temporary file first.
set +e
(ulimit -f 1; "$profana" table -q "$trace" -o "$tmp/out.txt") 2> /dev/null; rc=$?
set -e
[[ $rc == $((128 + $(kill -l XFSZ))) ]] || fail "SIGXFSZ: exit $rc, want death by SIGXFSZ"
[[ $(cat "$tmp/out.txt") == old ]] || fail "a write ended by a signal changed the old file"
no_leftovers "after SIGXFSZ"
# SIGTERM at some moment of a run: the old file or the whole new one, never a temporary file.
for delay in 0.01 0.05 0.1 0.2; do
  echo old > "$tmp/out.txt"
  "$profana" table -q "$trace" -o "$tmp/out.txt" & pid=$!
  sleep "$delay"; kill -TERM "$pid" 2> /dev/null || true; wait "$pid" 2> /dev/null || true
  [[ $(cat "$tmp/out.txt") == old ]] || cmp -s "$tmp/want.txt" "$tmp/out.txt" ||
    fail "SIGTERM after ${delay}s left a partial file"
  no_leftovers "after SIGTERM at ${delay}s"
done
# A SIGBUS that is not a mapped input cut short (here one sent by kill, while profana waits on a
# FIFO with no writer) still ends the run by the signal, as it would without profana's handler.
mkfifo "$tmp/waiting.json"
"$profana" table "$tmp/waiting.json" > /dev/null 2>&1 & pid=$!
sleep 0.5
kill -BUS "$pid"
set +e; wait "$pid"; rc=$?; set -e
[[ $rc == $((128 + $(kill -l BUS))) ]] || fail "SIGBUS from kill: exit $rc, want death by SIGBUS"

# Never over an input: the same path, another spelling of it, a hard link; --svg and convert too.
cp "$trace" "$tmp/keep.json.gz"
ln "$trace" "$tmp/hard.json.gz"
"$profana" convert "$trace" -o "$tmp/x.pfa"
cp "$tmp/x.pfa" "$tmp/x.keep"
refused() {  # refused WHAT ARGS...: exit 2, a message naming the refusal, the input unchanged
  local what=$1; shift
  set +e; "$profana" "$@" > /dev/null 2> "$tmp/refuse.err"; local rc=$?; set -e
  [[ $rc == 2 ]] || fail "$what: exit $rc, want 2"
  grep -q "refusing to write over an input" "$tmp/refuse.err" || fail "$what: message $(cat "$tmp/refuse.err")"
}
refused "table -o INPUT" table "$trace" -o "$trace"
refused "table -o ./INPUT" table "$trace" -o "$tmp/./t.json.gz"
refused "table -o HARDLINK" table "$trace" -o "$tmp/hard.json.gz"
refused "stacks --svg INPUT" stacks "$trace" --svg "$trace"
refused "tree -o INPUT" tree "$trace" -o "$trace"
refused "convert -o INPUT" convert "$tmp/x.pfa" -o "$tmp/x.pfa"
refused "diff -o NEXT" diff "$trace" "$tmp/keep.json.gz" -o "$tmp/keep.json.gz"
cmp -s "$trace" "$tmp/keep.json.gz" || fail "a refused write changed the input trace"
cmp -s "$tmp/x.pfa" "$tmp/x.keep" || fail "a refused convert changed the input"

# tree writes its output as it is made, chunk by chunk: the same rules. A failed write leaves the
# old file and no temporary file; the whole tree arrives otherwise.
"$profana" tree -q "$trace" > "$tmp/tree_want.txt"
"$profana" tree -q "$trace" -o "$tmp/tree.txt"
cmp -s "$tmp/tree_want.txt" "$tmp/tree.txt" || fail "tree -o FILE differs from stdout"
echo old > "$tmp/tree.txt"
set +e
(trap '' XFSZ; ulimit -f 1; "$profana" tree -q "$trace" -o "$tmp/tree.txt") 2> "$tmp/tree_efbig.err"; rc=$?
"$profana" tree -q "$trace" > /dev/full 2> "$tmp/tree_full.err"; rc_tree_full=$?
"$profana" tree -q "$trace" >&- 2> "$tmp/tree_closed.err"; rc_tree_closed=$?
set -e
[[ $rc == 2 ]] || fail "tree, failed write: exit $rc, want 2"
grep -q "tree.txt: write failed: File too large" "$tmp/tree_efbig.err" ||
  fail "tree, failed write message: $(cat "$tmp/tree_efbig.err")"
[[ $(cat "$tmp/tree.txt") == old ]] || fail "tree: a failed write changed the old file"
no_leftovers "after a failed tree write"
[[ $rc_tree_full == 2 ]] && grep -q "standard output: write failed: No space left on device" "$tmp/tree_full.err" ||
  fail "tree >/dev/full: exit $rc_tree_full, $(cat "$tmp/tree_full.err")"
[[ $rc_tree_closed == 2 ]] && grep -q "standard output: write failed: Bad file descriptor" "$tmp/tree_closed.err" ||
  fail "tree >&-: exit $rc_tree_closed, $(cat "$tmp/tree_closed.err")"

# Standard output: a full disk and a closed descriptor are errors that say so.
set +e
"$profana" table -q "$trace" > /dev/full 2> "$tmp/full.err"; rc_full=$?
"$profana" table -q "$trace" >&- 2> "$tmp/closed.err"; rc_closed=$?
"$profana" table -q "$trace" -o /dev/full 2> "$tmp/devfull.err"; rc_devfull=$?
"$profana" table -q "$trace" -o "$tmp/ok.txt" >&- 2> "$tmp/closed_ok.err"; rc_closed_ok=$?
set -e
[[ $rc_full == 2 ]] || fail ">/dev/full: exit $rc_full, want 2"
grep -q "^profana: error: standard output: write failed: No space left on device$" "$tmp/full.err" ||
  fail ">/dev/full message: $(cat "$tmp/full.err")"
[[ $rc_closed == 2 ]] || fail ">&-: exit $rc_closed, want 2"
grep -q "^profana: error: standard output: write failed: Bad file descriptor$" "$tmp/closed.err" ||
  fail ">&- message: $(cat "$tmp/closed.err")"
[[ $rc_devfull == 2 ]] || fail "-o /dev/full: exit $rc_devfull, want 2"
grep -q "/dev/full: write failed: No space left on device" "$tmp/devfull.err" ||
  fail "-o /dev/full message: $(cat "$tmp/devfull.err")"
# With -o FILE nothing goes to standard output, so a closed one is no error, and the file
# does not land on descriptor 1.
[[ $rc_closed_ok == 0 ]] || fail "-o FILE with stdout closed: exit $rc_closed_ok"
cmp -s "$tmp/want.txt" "$tmp/ok.txt" || fail "-o FILE with stdout closed differs"
"$profana" table -q "$trace" -o /dev/null || fail "-o /dev/null failed"
no_leftovers "at the end"
echo "1 passed, 0 failed"
