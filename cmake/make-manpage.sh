#!/usr/bin/env bash
# Writes profana's man page, gzipped, from its own help: help2man reads `profana --help` and
# `--version`, and a COMMANDS section holds `profana help COMMAND` for each command.
# Usage: make-manpage.sh HELP2MAN PROFANA OUT.1.gz
set -euo pipefail
help2man=$1 profana=$2 out=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
commands=$("$profana" --help | awk '/^Subcommands:/ {on = 1; next} on && NF == 0 {on = 0} on {print $1}')
[[ -n "$commands" ]] || { echo "make-manpage.sh: no commands in '$profana --help'" >&2; exit 1; }
{
  echo "[COMMANDS]"
  for command in $commands; do
    echo ".SS \"profana $command\""
    echo ".nf"
    # roff: a backslash is \e, and a line may not start with a control character.
    "$profana" help "$command" | sed -e 's/\\/\\e/g' -e "s/^[.']/\\\\\\&&/"
    echo ".fi"
  done
} > "$tmp/commands.h2m"
"$help2man" --no-info --section=1 --name="offline analysis of PyTorch profiler traces" \
  --include="$tmp/commands.h2m" --output="$tmp/profana.1" "$profana"
gzip -9n < "$tmp/profana.1" > "$out.tmp"
mv "$out.tmp" "$out"
