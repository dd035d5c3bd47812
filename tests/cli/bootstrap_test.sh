#!/usr/bin/env bash
# A fresh machine's first `scripts/demo`, with apt, dpkg and cmake replaced by stand-ins that
# record what they are asked: it installs the build's packages only (no Slurm, no munge, no
# browser), builds the binary alone (not the tests) with the build's progress line, says where
# the binary is, and prints the table. `scripts/bootstrap --slurm` (which scripts/test passes)
# adds the Slurm test's packages. Usage: bootstrap_test.sh SOURCE_DIR
set -euo pipefail
src=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# A checkout with the scripts, and a bin/ of stand-ins ahead of the real tools on PATH.
mkdir -p "$tmp/repo/scripts" "$tmp/bin"
cp "$src"/scripts/{demo,build,bootstrap,build-progress} "$tmp/repo/scripts/"
stub() { printf '#!/usr/bin/env bash\n%s\n' "$2" > "$tmp/bin/$1"; chmod +x "$tmp/bin/$1"; }
stub dpkg-query 'exit 1'                                        # nothing is installed
stub apt-get "echo \"apt-get \$*\" >> '$tmp/apt.log'"
stub sudo 'exec "$@"'
# cmake: configuring records its arguments; building prints ninja's status lines (in the form
# NINJA_STATUS asks for) and makes the binary, a stand-in that echoes its command line.
stub cmake "echo \"cmake \$*\" >> '$tmp/cmake.log'
if [[ \$1 == --build ]]; then
  for i in 1 2 3 4; do echo \"[\$i/4] Building CXX object f\$i.cc.o\"; done
  mkdir -p build; printf '#!/bin/sh\necho \"profana \$*\"\n' > build/profana; chmod +x build/profana
fi"
export PATH="$tmp/bin:$PATH"

(cd "$tmp" && repo/scripts/demo > out 2> err) || fail "demo: $(cat "$tmp/err")"
grep -q "^profana table testdata/oracle/cnn_train/all/trace.kineto_like.json$" "$tmp/out" ||
  fail "demo did not print the table: $(cat "$tmp/out")"
# The build's packages, each once; none of the Slurm test's or the browser tests'.
grep -q "^apt-get install .* cmake ninja-build g++ " "$tmp/apt.log" || fail "no build packages: $(cat "$tmp/apt.log")"
! grep -qE "slurm|munge|chromium" "$tmp/apt.log" || fail "demo installed test-only packages: $(cat "$tmp/apt.log")"
[[ $(grep -c "^apt-get update" "$tmp/apt.log") == 1 ]] || fail "apt-get update not run once"
grep -q "^cmake --build build -j[0-9]* --target profana$" "$tmp/cmake.log" ||
  fail "demo did not build the binary alone: $(cat "$tmp/cmake.log")"
# What a person sees on stderr: the first build said, its progress, where the binary is.
grep -q "^demo: first build of profana" "$tmp/err" || fail "no first-build line: $(cat "$tmp/err")"
grep -q "^building profana: 4/4 (100%)$" "$tmp/err" || fail "no progress line: $(cat "$tmp/err")"
grep -q "the binary is build/profana (export PATH=" "$tmp/err" || fail "binary not named: $(cat "$tmp/err")"

# --slurm adds the cluster's packages, without their Recommends; --chromium the browser.
rm "$tmp/apt.log"
"$tmp/repo/scripts/bootstrap" --chromium --slurm 2> "$tmp/err"
grep -q "^apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge$" "$tmp/apt.log" ||
  fail "--slurm: $(cat "$tmp/apt.log")"
grep -q "^apt-get install .* chromium$" "$tmp/apt.log" || fail "--chromium: $(cat "$tmp/apt.log")"
[[ $(grep -c "^apt-get update" "$tmp/apt.log") == 1 ]] || fail "apt-get update not run once"
# An unknown option is a usage error, not ignored.
rc=0; "$tmp/repo/scripts/bootstrap" --slrum 2> "$tmp/err" || rc=$?
[[ $rc == 2 ]] && grep -q "usage: scripts/bootstrap \[--chromium\] \[--slurm\]" "$tmp/err" || fail "--slrum: rc $rc"
# The full test run (and so CI) is what asks for Slurm.
grep -q "^scripts/bootstrap --chromium --slurm$" "$src/scripts/test" || fail "scripts/test does not pass --slurm"
echo "1 passed, 0 failed"
