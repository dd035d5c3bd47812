#!/usr/bin/env bash
# Seeds a corpus with native files and text twins of a few testdata traces, then runs the fuzzer
# for a bounded number of inputs. Usage: smoke.sh FUZZER PROFANA TESTDATA CORPUS_DIR [RUNS]
set -euo pipefail
fuzzer="$1" profana="$2" testdata="$3" corpus="$4" runs="${5:-2000}"
mkdir -p "$corpus"
n=0
for trace in "$testdata"/oracle/*/stack/trace.kineto_like.json "$testdata"/oracle/*/memory/trace.json \
             "$testdata"/traces/hta/critical_path/cuda_event_sync/*.json* "$testdata"/bad/truncated.json; do
  [[ -f $trace ]] || continue
  "$profana" convert -q "$trace" -o "$corpus/seed$n.pfa"
  "$profana" convert -q "$trace" -o "$corpus/seed$n.txt"
  n=$((n + 1))
done
exec "$fuzzer" -runs="$runs" -max_len=200000 "$corpus"
