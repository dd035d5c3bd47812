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
  cat <<'SECTIONS'
[EXIT STATUS]
.TP
.B 0
The command ran and, for \fBcheck\fR, every rule held.
.TP
.B 1
A check failed: a \fBcheck\fR budget rule or baseline comparison did not hold.
.TP
.B 2
Bad input or usage: an unreadable or damaged file (with \fB\-\-strict\fR, damaged events too),
an unknown option or value, or a filter that selects nothing. The message names the file, the
place and the fault.
[EXAMPLES]
.nf
profana table trace.json.gz \-\-sort self_cuda \-n 20
profana stacks trace.json.gz \-\-metric self_cuda \-\-svg flame.svg
profana steps 'run/*.pt.trace.json.gz'
profana steps trace.json.gz \-\-step\-marker train_step
profana diff base.json.gz new.json.gz \-\-sort self_device
profana check trace.json.gz \-\-budget budget.json
.fi
SECTIONS
} > "$tmp/commands.h2m"
"$help2man" --no-info --section=1 --name="offline analysis of PyTorch profiler traces" \
  --include="$tmp/commands.h2m" --output="$tmp/profana.1" "$profana"
gzip -9n < "$tmp/profana.1" > "$out.tmp"
mv "$out.tmp" "$out"
