#!/usr/bin/env bash
# Every command's --format json output on real traces validates against its JSON Schema in
# docs/schema (with Debian's python3-jsonschema). Usage: json_schema_test.sh PROFANA REPO_ROOT
set -euo pipefail
profana=$1 root=$2
py=/usr/bin/python3
if ! $py -c "import jsonschema" 2>/dev/null; then
  echo "SKIPPED: python3-jsonschema is not installed (scripts/bootstrap installs it)"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
traces=(
  "$root/testdata/traces/param/dlrm_kineto/worker3_step_12.1694128201557.pt.trace.json.gz"
  "$root/testdata/traces/kineto/be239c04/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"
  "$root/testdata/traces/tracelens/b200/eager_trace.json.gz"
  "$root/testdata/oracle/cnn_train/all/trace.kineto_like.json"
  "$root/testdata/oracle/nested_labels/legacy_plain/trace.json"
  "$root/testdata/traces/nvprof/profiling-lm/net.sql"
  "$root/testdata/traces/tracelens/mi300/resnet_act_checkpoint.json.gz"
)
n=0
for t in "${traces[@]}"; do
  "$profana" table "$t" --format json --row-limit -1 > "$tmp/table.$n.json"
  "$profana" table "$t" --format json --raw --row-limit 50 > "$tmp/table-raw.$n.json"
  "$profana" table "$t" --format json --group-by-stack 3 --group-by-input-shape > "$tmp/table-grouped.$n.json"
  "$profana" info "$t" --format json > "$tmp/info.$n.json"
  "$profana" stacks "$t" --format json > "$tmp/stacks.$n.json" 2>/dev/null
  "$profana" stacks "$t" --format json --metric self_cuda --stacks ops --unit ns > "$tmp/stacks-cuda.$n.json" 2>/dev/null
  "$profana" tree "$t" --format json > "$tmp/tree.$n.json"
  "$profana" optimizable "$t" --format json --top 5 > "$tmp/optimizable.$n.json" 2>/dev/null
  "$profana" queue "$t" --format json > "$tmp/queue.$n.json" 2>/dev/null
  "$profana" idle "$t" --format json > "$tmp/idle.$n.json" 2>/dev/null
  "$profana" critical-path "$t" --format json -n 5 > "$tmp/critical-path.$n.json" 2>/dev/null
  "$profana" advise "$t" --format json > "$tmp/advise.$n.json" 2>/dev/null
  n=$((n + 1))
done
# advise on every real trace in every format (as tests/fixtures.cc RealTraceFiles lists them);
# nsys/dynamicvit holds OS-runtime data only, and every command refuses it with exit 2.
advised=0
while IFS= read -r t; do
  if [[ $t == */nsys/dynamicvit/* ]]; then
    rc=0; "$profana" advise "$t" --format json > /dev/null 2>&1 || rc=$?
    [[ $rc == 2 ]] || { echo "advise $t: exit $rc, expected 2"; exit 1; }
    continue
  fi
  "$profana" advise "$t" --format json > "$tmp/advise-real.$advised.json" 2>/dev/null
  advised=$((advised + 1))
done < <(find "$root/testdata/traces" -type f ! -name '*.md'; find "$root/testdata/live" -type f -name trace.json.gz)
[[ $advised == 67 ]] || { echo "advise ran on $advised real traces, expected 67"; exit 1; }
# profana memory on every kind of memory record: Addr + totals, no Addr (2021), damaged, none.
for t in "$root/testdata/traces/hta/df_index_resolver/df_index_resolver.json.gz" \
         "$root/testdata/traces/kineto/be239c04/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz" \
         "$root/testdata/oracle/mlp_train/all/trace.kineto_like.json" "$root/testdata/memory/bad_records.json" \
         "$root/testdata/oracle/nested_labels/legacy_plain/trace.json"; do
  "$profana" memory "$t" --format json > "$tmp/memory.$n.json"
  "$profana" memory "$t" --format json --by-op > "$tmp/memory-by-op.$n.json"
  n=$((n + 1))
done
# diff and check on the HTA pair and two DLRM ranks, every variant of their JSON.
hta=$root/testdata/traces/hta/trace_diff dlrm=$root/testdata/traces/param/dlrm_kineto
"$profana" diff "$hta/control/control.json.gz" "$hta/test/test.json.gz" --format json --row-limit -1 > "$tmp/diff.0.json"
"$profana" diff "$dlrm"/worker0_*.json.gz "$dlrm"/worker7_*.json.gz --format json --group-by-input-shape --group-by-stack 2 > "$tmp/diff.1.json"
"$profana" diff "$hta/control/control.json.gz" "$hta/test/test.json.gz" --steps 1010-1011 --format json > "$tmp/diff.2.json"
"$profana" diff "$dlrm" "$dlrm/worker[0-3]*" --format json -q > "$tmp/diff.3.json"  # two jobs
"$profana" check "$hta/test/test.json.gz" --format json > "$tmp/check.0.json" 2>/dev/null || true
"$profana" check "$hta/test/test.json.gz" --baseline "$hta/control/control.json.gz" --format json > "$tmp/check.1.json" 2>/dev/null || true
"$profana" check "$dlrm"/worker0_*.json.gz --budget "$root/testdata/budgets/dlrm-pass.json" --format json > "$tmp/check.2.json"
"$profana" check "$dlrm"/worker0_*.json.gz --budget "$root/testdata/budgets/dlrm-fail.json" --format json > "$tmp/check.3.json" 2>/dev/null || true
# The whole-job commands on the 8-rank DLRM job, HTA's two sampled ranks and the hand-made
# two-rank job, every view.
for t in "$dlrm" "$root/testdata/traces/hta/trace_filter" "$root/testdata/job/two_ranks"; do
  "$profana" steps "$t" --format json > "$tmp/steps.$n.json"
  "$profana" kernels "$t" --format json > "$tmp/kernels.$n.json"
  "$profana" kernels "$t" --format json --by-op > "$tmp/kernels-by-op.$n.json"
  "$profana" kernels "$t" --format json --api > "$tmp/kernels-api.$n.json"
  "$profana" kernels "$t" --format json --transfers > "$tmp/kernels-transfers.$n.json"
  "$profana" table "$t" --format json > "$tmp/table-job.$n.json"
  "$profana" stacks "$t" --format json --stacks ops > "$tmp/stacks-job.$n.json"
  "$profana" collectives "$t" --format json --row-limit -1 > "$tmp/collectives.$n.json"
  "$profana" critical-path "$t" --format json -n 3 > "$tmp/critical-path-job.$n.json" 2>/dev/null
  n=$((n + 1))
done
# advise on every job in testdata.
jobs=0
for t in "$dlrm" "$root/testdata/traces/hta/trace_filter" "$root/testdata/job/"*/; do
  "$profana" advise "$t" --format json > "$tmp/advise-job.$jobs.json" 2>/dev/null
  jobs=$((jobs + 1))
done
"$profana" collectives "$root/testdata/job/collectives_three_ranks" --format json --no-align > "$tmp/collectives.$n.json"
"$profana" collectives "$root/testdata/job/no_collectives" --format json > "$tmp/collectives-none.$n.json"
cp=$root/testdata/traces/hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz
"$profana" critical-path "$cp" --annotation 'measure|forward' --instance 1 --what-if 'kernel:gemm=0.5' --what-if 'sync:Synchronize=0' --format json > "$tmp/critical-path-whatif.$n.json"
"$profana" summarize -q "$root/testdata/job/collectives_groups" -o "$tmp/groups.pfs"
"$profana" collectives "$tmp/groups.pfs" --format json > "$tmp/collectives-summary.$n.json"
# Summary files (profana.summary/1): one rank, a job of 8 ranks, named process groups, memory.
cp "$tmp/groups.pfs" "$tmp/summary-groups.json"
"$profana" summarize -q "${traces[0]}" -o "$tmp/summary-rank.json"
"$profana" summarize -q "$root/testdata/traces/param/dlrm_kineto" -o "$tmp/summary-job.json"
"$profana" summarize -q "$root/testdata/memory/categories.json" -o "$tmp/summary-memory.json"
"$profana" steps "$root/testdata/traces/hta/cpu_only/"*.json.gz --format json > "$tmp/steps.$n.json"
# An allocator snapshot, and two compared.
snapshot=$root/testdata/live/snapshot_resnet_amp/snapshot.pickle.gz
"$profana" memory "$snapshot" --format json > "$tmp/memory-snapshot.$n.json"
"$profana" diff "$snapshot" "$snapshot" --format json > "$tmp/memory-snapshot-diff.$n.json"
# profana sql: a trace's key_averages view, and a job's kernels per rank.
"$profana" sql "${traces[0]}" "SELECT * FROM key_averages" --format json > "$tmp/sql.0.json"
"$profana" sql "$root/testdata/job/two_ranks" "SELECT rank, COUNT(*), AVG(dur_ns), MIN(stream) FROM kernel GROUP BY rank" --format json > "$tmp/sql.1.json"
$py - "$root/docs/schema" "$tmp" <<'PY'
import json, sys, glob, os, jsonschema
schema_dir, out_dir = sys.argv[1], sys.argv[2]
checked = 0
for path in sorted(glob.glob(os.path.join(out_dir, "*.json"))):
    doc = json.load(open(path))
    name = doc["schema"].split(".")[1].split("/")[0]
    schema = json.load(open(os.path.join(schema_dir, f"{name}-1.json")))
    jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)
    checked += 1
assert checked == 216, checked
# The schemas must be able to fail: a time as a formatted string is rejected.
doc = json.load(open(os.path.join(out_dir, "table.0.json")))
doc["rows"][0]["cpu_time_total_us"] = "1.234ms"
try:
    jsonschema.validate(doc, json.load(open(os.path.join(schema_dir, "table-1.json"))), cls=jsonschema.Draft202012Validator)
    raise SystemExit("schema accepted a formatted time string")
except jsonschema.ValidationError:
    pass
# The memory schema can fail too: a peak in a formatted unit is rejected.
doc = json.load(open(os.path.join(out_dir, "memory.7.json")))
doc["devices"][0]["peak"]["bytes"] = "2.36 GiB"
try:
    jsonschema.validate(doc, json.load(open(os.path.join(schema_dir, "memory-1.json"))), cls=jsonschema.Draft202012Validator)
    raise SystemExit("schema accepted a formatted memory string")
except jsonschema.ValidationError:
    pass
print(f"{checked} passed, 0 failed")
PY
