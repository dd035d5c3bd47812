#!/usr/bin/env bash
# The shell completions `profana completion` generates, driven as the shells drive them: bash's
# completion function with COMP_WORDS set; zsh's script parsed by zsh (when zsh is installed).
# Every command of `profana --help` must be offered. Usage: completion_test.sh PROFANA
set -euo pipefail
profana=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
"$profana" completion bash > "$tmp/profana.bash"
"$profana" completion zsh > "$tmp/_profana"
commands=$("$profana" --help | awk '/^Subcommands:/ {on = 1; next} on && NF == 0 {on = 0} on {print $1}')
[[ $(wc -w <<< "$commands") -ge 13 ]] || fail "too few commands in --help: $commands"

# complete WORD... : what bash offers for the last word.
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _profana; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$tmp/profana.bash" "$@"
}
offered=$(complete_words profana "")
for c in $commands; do
  grep -qx "$c" <<< "$offered" || fail "bash does not offer the command $c"
  grep -q "'$c:" "$tmp/_profana" || fail "zsh does not offer the command $c"
done
[[ $(complete_words profana tab) == table ]] || fail "bash: 'profana tab' gives $(complete_words profana tab)"
# Options of the command on the line, values of a fixed set, and common options before it.
grep -qx -- "--sort" <<< "$(complete_words profana table x.json --so)" || fail "bash: table --so"
[[ $(complete_words profana table --format "") == $'text\njson\ncsv' ]] ||
  fail "bash: table --format gives $(complete_words profana table --format "")"
[[ $(complete_words profana -q memory --format h) == html ]] || fail "bash: -q memory --format h"
# Names the library parses: sort keys, metrics, stack sources, diff's metrics.
[[ $(complete_words profana table t.json --sort self_cu) == $'self_cuda_time_total\nself_cuda_memory_usage\nself_cuda\nself_cuda_mem' ]] ||
  fail "bash: table --sort self_cu gives $(complete_words profana table t.json --sort self_cu)"
[[ $(complete_words profana stacks t.json --metric "") == $'self_cpu\nself_cuda\nself_device\nself_cpu_time_total\nself_cuda_time_total\nself_device_time_total' ]] ||
  fail "bash: stacks --metric gives $(complete_words profana stacks t.json --metric "")"
[[ $(complete_words profana stacks t.json --stacks o) == ops ]] || fail "bash: stacks --stacks o"
grep -qx -- "self_device" <<< "$(complete_words profana diff a.json b.json --sort self_d)" ||
  fail "bash: diff --sort self_d"
[[ $(complete_words profana help ta) == table ]] || fail "bash: help ta"
[[ $(complete_words profana completion "") == $'bash\nzsh' ]] || fail "bash: completion"
# An option's own value is no command: `-o table` then the command word.
grep -qx -- "--row-limit" <<< "$(complete_words profana -o out.txt table t.json --row)" ||
  fail "bash: -o FILE before the command"
# File names complete where a trace is expected.
touch "$tmp/trace_a.json"
[[ $(complete_words profana table "$tmp/trace_") == "$tmp/trace_a.json" ]] || fail "bash: file names"
[[ $(complete_words profana table t.json -o "$tmp/trace_") == "$tmp/trace_a.json" ]] ||
  fail "bash: -o FILE"
# Free text (a regex, a thread, a window) is no file name: nothing is offered.
for option in --name --exclude --step-marker --thread --steps --window; do
  [[ -z $(complete_words profana table t.json "$option" "$tmp/trace_") ]] ||
    fail "bash: table $option offers file names"
done

if command -v zsh > /dev/null; then
  zsh -n "$tmp/_profana" || fail "zsh cannot parse _profana"
  head -1 "$tmp/_profana" | grep -qx "#compdef profana" || fail "zsh: no #compdef line"
  grep -qF -- "--format'[Output format]:format:(text json csv)'" "$tmp/_profana" ||
    fail "zsh: table's --format values"
  grep -qF -- ":metric:(self_cpu self_cuda self_device self_cpu_time_total self_cuda_time_total self_device_time_total)" "$tmp/_profana" ||
    fail "zsh: stacks' --metric values"
fi
echo "1 passed, 0 failed"
