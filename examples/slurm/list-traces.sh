#!/usr/bin/env bash
# Prints the trace files named by the arguments, one absolute path a line, sorted (C locale) and
# without repeats, so that every run over the same inputs numbers them the same way.
# Usage: list-traces.sh TRACE_OR_DIR...
# A directory stands for the traces directly inside it: *.json, *.json.gz (Kineto, as
# torch.profiler.tensorboard_trace_handler writes them), *.pfa (profana's native file) and
# *.nvvp (nvprof). A file is taken whatever its name. Exit 2 when an argument does not exist, a
# directory holds no trace, or a path holds a newline.
set -euo pipefail
[ $# -ge 1 ] || {
  echo "usage: list-traces.sh TRACE_OR_DIR..." >&2
  exit 2
}
no_newline() {
  case $1 in *$'\n'*)
    echo "list-traces.sh: a path with a newline in it is not supported: $1" >&2
    exit 2
    ;;
  esac
}
for arg in "$@"; do
  no_newline "$arg"
  if [ -d "$arg" ]; then
    n=0
    while IFS= read -r -d '' f; do
      no_newline "$f"
      realpath -- "$f"
      n=$((n + 1))
    done < <(find "$arg" -mindepth 1 -maxdepth 1 -type f \
      \( -name '*.json' -o -name '*.json.gz' -o -name '*.pfa' -o -name '*.nvvp' \) -print0)
    [ $n -gt 0 ] || {
      echo "list-traces.sh: $arg: no trace files (*.json, *.json.gz, *.pfa, *.nvvp) in it" >&2
      exit 2
    }
  elif [ -f "$arg" ]; then
    realpath -- "$arg"
  else
    echo "list-traces.sh: $arg: no such file or directory" >&2
    exit 2
  fi
done | LC_ALL=C sort -u
