#!/usr/bin/env bash
# A generated job (scripts/gen_trace.py --ranks) with a planted straggler and planted clock
# offsets: `profana collectives` must name the straggler (last at every all-reduce, the only
# rank that makes others wait) and recover every rank's offset to within 1 us; `steps` and
# `table` read the same directory.
# Usage: generated_job_test.sh PROFANA REPO_ROOT
set -euo pipefail
profana=$1 root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 "$root/scripts/gen_trace.py" --ranks 8 --size-mb 1 --seed 5 --straggler 5 \
  --straggler-delay-us 800 -o "$tmp/job" 2> /dev/null
"$profana" collectives "$tmp/job" --format json -q > "$tmp/collectives.json"
"$profana" steps "$tmp/job" --format json -q > "$tmp/steps.json"
"$profana" table "$tmp/job" --format json -q > "$tmp/table.json"
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
planted = {}
for line in open(tmp + "/job/planted.txt"):
    if line.startswith("#"):
        continue
    key, *values = line.split()
    planted.setdefault(key, []).append(values)
offsets = {int(r): float(us) for r, us in planted["clock_offset_us"]}
straggler = int(planted["straggler"][0][0])
c = json.load(open(tmp + "/collectives.json"))
assert c["ranks"] == list(range(8)), c["ranks"]
assert c["aligned"] and c["reference_rank"] == 0
steps = json.load(open(tmp + "/steps.json"))
n_steps = len([s for s in steps["steps"] if s["rank"] == 0])
assert n_steps >= 2, n_steps
# One all-reduce per step, on every rank, all matched.
assert c["matched"] == n_steps, (c["matched"], n_steps)
assert c["unmatched_kernels"] == 0
for s in c["stragglers"]:
    r = s["rank"]
    # Rank r's clock runs ahead by offsets[r]: profana adds -offsets[r] to put it on rank 0's.
    assert abs(s["clock_offset"] + offsets[r]) <= 1.0, (r, s["clock_offset"], offsets[r])
    if r == straggler:
        assert s["arrived_last"] == n_steps and s["wait_caused"] > 0, s
        assert s["wait_suffered"] == 0, s
    else:
        assert s["arrived_last"] == 0 and s["wait_caused"] == 0, s
# The planted delay (800 us) is the skew of every all-reduce, give or take the jitter of 2-20 us.
for coll in c["collectives"]:
    assert coll["last_rank"] == straggler, coll
    assert 782 <= coll["skew"] <= 818, coll["skew"]
    assert coll["transfer"] == 180, coll["transfer"]
t = json.load(open(tmp + "/table.json"))
comms = [r for r in t["rows"] if r["name"] == "record_param_comms"]
assert comms and comms[0]["count"] == 8 * n_steps, comms
print("generated job: %d ranks, %d all-reduces each, straggler %d found, offsets within 1 us"
      % (len(c["ranks"]), n_steps, straggler))
PY
