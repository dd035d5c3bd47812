#!/usr/bin/env bash
# Seeds a corpus from testdata/ and runs one fuzz target for a fixed number of inputs: the CI
# smoke test. Usage: smoke.sh KIND FUZZER PROFANA TESTDATA CORPUS_DIR [RUNS]
#   KIND native_reader: native files and text twins of a few traces, made by PROFANA
#   KIND chrome_json:   the small JSON files of testdata/ (plain and gzip), bad inputs included
#   KIND streaming_json: the same seeds as chrome_json (plain only: the target streams a file)
#   KIND nvprof:        the nvprof fixtures' text (the target reads its bytes as row values)
#   KIND nsys, rpd, rocpd: their SQL fixtures' text, read the same way
#   KIND rocprofv3_json: the rocprofv3 JSON files of testdata/ (hand-made and damaged ones)
#   KIND allocator_snapshot: small snapshots cut from testdata/live's real one by Python's pickle
#                       (a few segments and history entries each; protocols 2 and 4, one gzipped)
#   KIND summary:       summary files made by PROFANA: ranks of the jobs in testdata/job, merged
#                       and alone, and one trace with memory records
set -euo pipefail
# Runs: 2000 inputs; 500 for the SQLite kinds, whose every input builds and opens a database (about
# 0.1 s each under ASan, where 2000 would take minutes of the 2-core CI).
default_runs=2000
case "$1" in nvprof|nsys|rpd|rocpd) default_runs=500 ;; esac
kind="$1" fuzzer="$2" profana="$3" testdata="$4" corpus="$5" runs="${6:-$default_runs}"
mkdir -p "$corpus"
small() { find "$@" -maxdepth 1 -type f -size -64k 2>/dev/null | sort; }
case "$kind" in
  native_reader)
    n=0
    for trace in "$testdata"/oracle/*/stack/trace.kineto_like.json "$testdata"/oracle/*/memory/trace.json \
                 "$testdata"/traces/hta/critical_path/cuda_event_sync/*.json* "$testdata"/bad/truncated.json; do
      [[ -f $trace ]] || continue
      "$profana" convert -q "$trace" -o "$corpus/seed$n.pfa"
      "$profana" convert -q "$trace" -o "$corpus/seed$n.txt"
      n=$((n + 1))
    done ;;
  chrome_json|streaming_json)
    for f in $(small "$testdata"/bad "$testdata"/gpu "$testdata"/memory "$testdata"/golden/*); do
      case "$f" in *.json|*.gz) cp "$f" "$corpus/$(echo "$f" | md5sum | cut -c1-12)-$(basename "$f")" ;; esac
    done ;;
  nvprof)
    cp "$testdata"/nvprof/*.sql "$corpus"/ ;;
  nsys|rpd|rocpd)
    cp "$testdata"/"$kind"/*.sql "$corpus"/ ;;
  rocprofv3_json)
    cp "$testdata"/rocprofv3/*.json "$testdata"/bad/rocprofv3_*.json "$corpus"/ ;;
  allocator_snapshot)
    /usr/bin/python3 - "$testdata/live/snapshot_resnet_amp/snapshot.pickle.gz" "$corpus" <<'PY'
import gzip, pickle, sys
# Our own test data: a plain-data pickle (profana's reader checks that; Python's is trusted here).
s = pickle.loads(gzip.open(sys.argv[1]).read())
trace = s["device_traces"][0]
for i, (segs, start, n, proto) in enumerate([(1, 0, 20, 4), (3, 100, 60, 2), (2, 1750, 30, 5),
                                             (0, 0, 0, 3)]):
    cut = {"segments": s["segments"][:segs], "device_traces": [trace[start:start + n]],
           "allocator_settings": s["allocator_settings"],
           "external_annotations": s["external_annotations"][:2]}
    data = pickle.dumps(cut, protocol=proto)
    open(f"{sys.argv[2]}/seed{i}.pickle", "wb").write(data)
open(f"{sys.argv[2]}/seed_gz.pickle.gz", "wb").write(gzip.compress(pickle.dumps(
    {"segments": s["segments"][:1], "device_traces": [trace[:5]]}, protocol=4)))
PY
    ;;
  summary)
    n=0
    for job in "$testdata"/job/*/; do
      "$profana" summarize -q "$job" -o "$corpus/job$n.pfs"
      for trace in "$job"*.json; do
        "$profana" summarize -q "$trace" -o "$corpus/rank$n.pfs"
        n=$((n + 1))
      done
    done
    "$profana" summarize -q "$testdata"/oracle/mlp_train/all/trace.kineto_like.json -o "$corpus/memory.pfs" ;;
  *) echo "smoke.sh: unknown kind $kind" >&2; exit 2 ;;
esac
# -rss_limit_mb: an input that makes profana take more than this is a finding, not a slow run.
[[ $runs == 0 ]] && exit 0  # seeding only
# A fixed seed (FUZZ_SEED, default 1) makes the gate reproducible: the same inputs on every run.
# Exploring with new seeds is what the campaigns of docs/fuzzing.md are for.
exec "$fuzzer" -seed="${FUZZ_SEED:-1}" -runs="$runs" -max_len=200000 -rss_limit_mb=2048 -timeout=20 "$corpus"
