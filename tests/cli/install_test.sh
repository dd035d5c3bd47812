#!/usr/bin/env bash
# The Debian package as a user gets it: CPack builds the .deb from the build folder, dpkg-deb
# unpacks it into a temporary root (no root needed), and the unpacked binary, man page and
# completions are checked; then `cmake --install --prefix` into another temporary root.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
trace=$src/testdata/oracle/cnn_train/all/trace.kineto_like.json

cpack --config "$build/CPackConfig.cmake" -B "$tmp/pkg" > "$tmp/cpack.log" 2>&1 ||
  fail "cpack: $(cat "$tmp/cpack.log")"
debs=("$tmp"/pkg/profana_*.deb)
[[ ${#debs[@]} == 1 && -f ${debs[0]} ]] || fail "no single .deb in $(ls "$tmp/pkg")"
deb=${debs[0]}
[[ $(dpkg-deb -f "$deb" Package) == profana ]] || fail "package name"
# dpkg-shlibdeps filled Depends from the linked libraries.
dpkg-deb -f "$deb" Depends | grep -q "libc6" || fail "Depends lacks libc6: $(dpkg-deb -f "$deb" Depends)"
dpkg-deb -x "$deb" "$tmp/root"
for f in usr/bin/profana usr/share/man/man1/profana.1.gz \
         usr/share/bash-completion/completions/profana usr/share/zsh/vendor-completions/_profana; do
  [[ -s $tmp/root/$f ]] || fail "the package lacks /$f: $(dpkg-deb -c "$deb")"
done

installed=$tmp/root/usr/bin/profana
[[ $("$installed" --version) == $("$build/profana" --version) ]] || fail "installed --version differs"
"$installed" --version | grep -Eq '^profana [0-9.]+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)$' ||
  fail "--version: $("$installed" --version)"
"$installed" table "$trace" > "$tmp/installed.txt"
"$build/profana" table "$trace" > "$tmp/built.txt"
cmp -s "$tmp/installed.txt" "$tmp/built.txt" || fail "the installed table differs from the built one"
# The key_averages table of this trace: its header, and a row every CNN step has.
grep -q "Self CPU %" "$tmp/installed.txt" || fail "no table header"
grep -q "aten::conv2d" "$tmp/installed.txt" || fail "no aten::conv2d row"

# The man page: help2man's header, the top-level options, and a section for every command.
man=$tmp/profana.1
zcat "$tmp/root/usr/share/man/man1/profana.1.gz" > "$man"
grep -q '^\.TH PROFANA "1"' "$man" || fail "man page header: $(head -3 "$man")"
for command in $("$installed" --help | awk '/^Subcommands:/ {on = 1; next} on && NF == 0 {on = 0} on {print $1}'); do
  grep -q "^\.SS \"profana $command\"" "$man" || fail "man page has no section for $command"
done
grep -q -- "--max-memory" "$man" || fail "man page lacks the common options"
grep -q '^\.SH "EXIT STATUS"' "$man" || fail "man page has no EXIT STATUS"
grep -q '^\.SH EXAMPLES' "$man" || fail "man page has no EXAMPLES"
if command -v groff > /dev/null; then
  groff -man -Tutf8 -ww -z "$man" 2> "$tmp/groff.err" || fail "groff failed"
  [[ ! -s $tmp/groff.err ]] || fail "groff warnings: $(head -3 "$tmp/groff.err")"
fi

# The installed completions are what the installed binary generates.
cmp -s "$tmp/root/usr/share/bash-completion/completions/profana" <("$installed" completion bash) ||
  fail "bash completion file differs from 'profana completion bash'"
cmp -s "$tmp/root/usr/share/zsh/vendor-completions/_profana" <("$installed" completion zsh) ||
  fail "zsh completion file differs from 'profana completion zsh'"

# cmake --install into a prefix: the same files under it.
cmake --install "$build" --prefix "$tmp/prefix" > /dev/null
for f in bin/profana share/man/man1/profana.1.gz share/bash-completion/completions/profana \
         share/zsh/vendor-completions/_profana; do
  [[ -s $tmp/prefix/$f ]] || fail "cmake --install left out $f"
done
"$tmp/prefix/bin/profana" table "$trace" | cmp -s - "$tmp/built.txt" || fail "prefix install's table differs"
echo "1 passed, 0 failed"
