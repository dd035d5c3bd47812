#!/usr/bin/env bash
# A 150-step live PyTorch 2.11 session (testdata/long_session, README there): profana prints
# PyTorch's three tables byte for byte. Its 23 Kineto overhead events decide rows: each lists the
# device work of the id under it in PyTorch's C++ tree (docs/semantics.md), one buffer request
# 542.187 us of aten::_cudnn_rnn's kernels, another (under a GPU user annotation) none. Two of its
# launches lost their External id, which --link auto credits to the op around them and PyTorch to
# none: the tables are --link pytorch's. Release only: the session is 192 MB of JSON.
# Usage: long_live_session_test.sh PROFANA TESTDATA
set -euo pipefail
profana=$1 data=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
session=$data/long_session/lstm_150steps
fail() { echo "FAIL: $*" >&2; exit 1; }

compare() {  # compare TABLE ARGS...
  local table=$1; shift
  "$profana" table "$session/trace.json.gz" --link pytorch "$@" > "$tmp/$table" 2> "$tmp/err" ||
    fail "$table: exit $?: $(cat "$tmp/err")"
  cmp -s "$tmp/$table" "$session/$table" ||
    fail "$table differs from PyTorch's: $(diff "$tmp/$table" "$session/$table" | head -5)"
}
compare table_default.txt
compare table_self_cuda.txt --sort self_cuda_time_total --row-limit -1
compare table_cpu_total_top30.txt --sort cpu_time_total --row-limit 30

# The overhead rows themselves: the buffer requests' CUDA total is one aten::_cudnn_rnn's kernels
# (542.187 us) and Optimizer.step#Adam.step's (69.121 us) under one of them in PyTorch's tree.
grep -E '^ +Activity Buffer Request .* 542\.187us .* 611\.308us .* 12  $' \
  "$tmp/table_self_cuda.txt" > /dev/null || fail "Activity Buffer Request row: $(grep 'Activity Buffer' "$tmp/table_self_cuda.txt")"
grep -E '^ +Buffer Flush .* 542\.187us .* 542\.187us .* 11  $' \
  "$tmp/table_self_cuda.txt" > /dev/null || fail "Buffer Flush row: $(grep 'Buffer Flush' "$tmp/table_self_cuda.txt")"
echo "ok: the 150-step session's three tables are PyTorch's"
