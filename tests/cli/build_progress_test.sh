#!/usr/bin/env bash
# scripts/build-progress, which scripts/demo pipes the build through: a line at every tenth of a
# build when stderr is not a terminal, one updating line on a terminal, and a failed step's
# output passed through. Usage: build_progress_test.sh SOURCE_DIR
set -euo pipefail
src=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
progress=$src/scripts/build-progress

# A 20-step build: ninja's status lines with compiler chatter between them.
for i in $(seq 1 20); do
  echo "[$i/20] Building CXX object CMakeFiles/x.dir/f$i.cc.o"
  echo "f$i.cc:1:1: warning: unused variable"
done > "$tmp/ninja.log"
"$progress" < "$tmp/ninja.log" > "$tmp/out" 2> "$tmp/err"
[[ ! -s $tmp/out ]] || fail "progress wrote to stdout"
# The first step, then steps 2, 4, ... 20 (10%, 20%, ... 100%): one line each, and no warnings.
expected=$(echo "building profana: 1/20 (5%)"; for i in $(seq 2 2 20); do echo "building profana: $i/20 ($((i * 5))%)"; done)
[[ $(cat "$tmp/err") == "$expected" ]] || fail "not a terminal: $(cat "$tmp/err")"

# Nothing to build: ninja says so in one line that is no status line; no progress at all.
echo "ninja: no work to do." | "$progress" 2> "$tmp/err"
[[ ! -s $tmp/err ]] || fail "no work: $(cat "$tmp/err")"

# A failure: the progress so far, then everything from ninja's FAILED: line on.
{ echo "[1/3] Building CXX object a.cc.o"; echo "FAILED: b.cc.o"; echo "b.cc:3:1: error: expected ';'";
  echo "ninja: build stopped: subcommand failed."; } | "$progress" 2> "$tmp/err"
[[ $(sed -n 2p "$tmp/err") == "FAILED: b.cc.o" ]] || fail "failure: $(cat "$tmp/err")"
grep -q "error: expected ';'" "$tmp/err" || fail "the compiler error was not passed through"

# On a terminal: one line rewritten in place (carriage returns), ending with a newline.
if command -v script > /dev/null; then
  script -qec "'$progress' < '$tmp/ninja.log'" /dev/null > "$tmp/tty" 2>&1 < /dev/null
  tr -d '\n' < "$tmp/tty" | grep -q $'\rbuilding profana: 1/20 (5%)\rbuilding profana: 2/20 (10%)\r' ||
    fail "terminal: $(od -c "$tmp/tty" | head -3)"
  [[ $(grep -c . "$tmp/tty") == 1 ]] || fail "terminal: more than one line"
fi

# scripts/demo sends its build through the filter, with ninja's status in the form it reads.
grep -q 'NINJA_STATUS="\[%f/%t\] " scripts/build release --target profana | scripts/build-progress' "$src/scripts/demo" ||
  fail "scripts/demo does not pipe its build through scripts/build-progress"
echo "1 passed, 0 failed"
