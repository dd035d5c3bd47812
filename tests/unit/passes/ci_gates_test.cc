// Filters, diff and budgets on real traces: the HTA trace_diff pair (6 steps each) and the DLRM
// ranks of facebookresearch/param.
#include <catch2/catch.hpp>
#include <sstream>

#include "fmt/format.h"
#include "profana/passes/budget.h"
#include "profana/passes/function_events.h"
#include "profana/passes/stacks.h"
#include "profana/passes/trace_diff.h"
#include "profana/passes/trace_filter.h"
#include "test_util.h"

using namespace profana;

namespace {

const char* kControl = "traces/hta/trace_diff/control/control.json.gz";
const char* kTest = "traces/hta/trace_diff/test/test.json.gz";
const char* kRank0 = "traces/param/dlrm_kineto/worker0_step_12.1694128201545.pt.trace.json.gz";

}  // namespace

TEST_CASE("step ranges and windows parse, and bad text is named with what was expected",
          "[filter]") {
  auto r = passes::ParseStepRanges("3-5,9");
  REQUIRE(r.ok());
  CHECK(r->size() == 2);
  CHECK((*r)[0] == std::make_pair<int64_t, int64_t>(3, 5));
  CHECK((*r)[1] == std::make_pair<int64_t, int64_t>(9, 9));
  CHECK(!passes::ParseStepRanges("5-3").ok());
  CHECK(!passes::ParseStepRanges("a").ok());
  CHECK(passes::ParseStepRanges("3-").status().message() ==
        "\"3-\": expected step numbers and ranges like 3-5 or 3-5,9");
  Result<passes::FilterWindow> f = passes::ParseWindow("100:");
  REQUIRE(f.ok());
  CHECK(*f->start_ns == 100'000);  // a bare number is microseconds
  CHECK(!f->end_ns);
  CHECK(passes::ParseWindow("7").status().message().rfind("\"7\": expected START:END", 0) == 0);
  // Units as the outputs print times: 100ms is 100,000,000 ns, 0.2s is 200,000,000 ns.
  Result<passes::FilterWindow> g = passes::ParseWindow("100ms:0.2s");
  REQUIRE(g.ok());
  CHECK(*g->start_ns == 100'000'000);
  CHECK(*g->end_ns == 200'000'000);
  CHECK(!passes::ParseWindow("2ms:1000us").ok());  // END (1 ms) before START (2 ms)
  CHECK(!passes::ParseWindow("1min:").ok());
}

TEST_CASE("the steps filter keeps the chosen steps and the kernels launched in them", "[filter]") {
  Trace all = test::LoadTestTrace(kControl);
  Trace two = test::LoadTestTrace(kControl);
  passes::TraceFilter f;
  f.steps = {{1010, 1011}};
  REQUIRE(passes::FilterTrace(f, &two).ok());
  CHECK(passes::CountSteps(all).steps == 6);
  CHECK(passes::CountSteps(two).steps == 2);
  CHECK(two.events.size() < all.events.size());
  // Every kept kernel's launch was kept with it: each is credited, under --link enclosing, to
  // the cpu_op around its launch, or its launch sits under labels only (ProfilerStep#N) and is
  // counted as a launch to no op. Never a kernel without its launch.
  passes::FunctionEventList e =
      passes::BuildFunctionEvents(two, std::nullopt, passes::LinkRule::kEnclosing);
  CHECK(e.kernels_attributed > 0);
  uint64_t kernels = 0;
  for (size_t i = 0; i < two.events.size(); ++i) kernels += IsDeviceWork(two.events.kind[i]);
  CHECK(e.kernels_attributed + e.kernels_unattributed == kernels);
  CHECK(e.launches_linked == 0);  // this 2022 trace records no links
  CHECK(e.launches_linked + e.launches_enclosed + e.launches_unattributed ==
        e.kernels_attributed + e.kernels_unattributed);
  // The origin does not move: the profiler's own span is always kept.
  CHECK(two.metadata.origin.kind == TimeOriginKind::kTraceSpan);
  CHECK(two.metadata.origin.ns == all.metadata.origin.ns);
}

TEST_CASE("skipping the first step drops the warm-up; steps outside the trace are an error",
          "[filter]") {
  Trace t = test::LoadTestTrace(kControl);
  passes::TraceFilter f;
  f.skip_first_step = true;
  REQUIRE(passes::FilterTrace(f, &t).ok());
  CHECK(passes::CountSteps(t).steps == 5);
  Trace u = test::LoadTestTrace(kControl);
  passes::TraceFilter g;
  g.steps = {{3, 5}};
  Status st = passes::FilterTrace(g, &u);
  CHECK(st.code() == ErrorCode::kInvalidArgument);
  CHECK(st.message() == "--steps selects no step: the trace has ProfilerStep#1009 to #1014");
}

TEST_CASE(
    "the name filter keeps matching ops with their children and kernels, exclude removes them",
    "[filter]") {
  Trace t = test::LoadTestTrace(kRank0);
  passes::TraceFilter f;
  f.name = "^Optimizer\\.step";
  REQUIRE(passes::FilterTrace(f, &t).ok());
  passes::FunctionEventList e = passes::BuildFunctionEvents(t);
  std::vector<passes::AverageRow> rows = passes::ComputeKeyAverages(t, e, {});
  // One top-level optimizer step, everything else inside it.
  int64_t top = 0;
  for (size_t i = 0; i < e.size(); ++i)
    top += !e.parent[i].valid() && e.device_type[i] == passes::DeviceType::kCPU;
  CHECK(top == 1);
  CHECK(e.kernels_attributed > 0);
  Trace x = test::LoadTestTrace(kRank0);
  passes::TraceFilter g;
  g.exclude = "^Optimizer\\.step";
  REQUIRE(passes::FilterTrace(g, &x).ok());
  Trace full = test::LoadTestTrace(kRank0);
  CHECK(x.events.size() + t.events.size() == full.events.size() + 1);  // the span is in both
  passes::TraceFilter bad;
  bad.name = "(";
  CHECK(passes::FilterTrace(bad, &x).message().find("--name \"(\": bad regular expression") == 0);
}

TEST_CASE("diff normalises per step when the step counts differ", "[diff]") {
  Trace base = test::LoadTestTrace(kControl);
  passes::TraceFilter f;
  f.steps = {{1010, 1011}};
  REQUIRE(passes::FilterTrace(f, &base).ok());
  Trace next = test::LoadTestTrace(kTest);
  passes::FunctionEventList be = passes::BuildFunctionEvents(base),
                            ne = passes::BuildFunctionEvents(next);
  passes::TraceDiff d = passes::DiffTraces(base, be, next, ne, {});
  CHECK(d.per_step);
  CHECK(d.base.steps == 2);
  CHECK(d.next.steps == 6);
  // The whole test trace, per step: 963.762 ms of device time over 6 steps.
  CHECK(d.next.self_device_us == Approx(963762.0 / 6).epsilon(1e-6));
  CHECK(d.next.step_time_us == Approx(124067).margin(1));
  // The largest change leads, among the ops and then among the user annotations.
  REQUIRE(!d.rows.empty());
  CHECK(d.ops == 397);  // 433 keys, 36 of them user annotations
  for (size_t i = 0; i < d.rows.size(); ++i) CHECK(d.rows[i].annotation == (i >= d.ops));
  for (size_t i = 1; i < d.rows.size(); ++i)
    if (i != d.ops) CHECK(std::fabs(d.rows[i - 1].change) >= std::fabs(d.rows[i].change));
}

TEST_CASE("diff of the HTA pair: cudaMemcpyAsync grew most", "[diff]") {
  Trace base = test::LoadTestTrace(kControl), next = test::LoadTestTrace(kTest);
  passes::FunctionEventList be = passes::BuildFunctionEvents(base),
                            ne = passes::BuildFunctionEvents(next);
  passes::TraceDiff d = passes::DiffTraces(base, be, next, ne, {});
  CHECK(!d.per_step);
  CHECK(d.rows.size() == 433);
  CHECK(d.added == 32);
  CHECK(d.removed == 138);
  CHECK(d.rows[0].name == "cudaMemcpyAsync");
  CHECK(d.rows[0].base.count == 228);
  CHECK(d.rows[0].next.count == 4812);
  CHECK(d.rows[0].change == Approx(292492).margin(1));
  CHECK(d.base.self_cpu_us == Approx(639138).margin(1));
  CHECK(d.next.self_device_us == Approx(963762).margin(1));
}

TEST_CASE("budget files: every rule measured, bad keys named with the rule index", "[budget]") {
  auto b = passes::ParseBudget(test::ReadFile(test::TestData("budgets/dlrm-pass.json")),
                               "dlrm-pass.json");
  REQUIRE(b.ok());
  REQUIRE(b->rules.size() == 7);
  Trace t = test::LoadTestTrace(kRank0);
  passes::FunctionEventList e = passes::BuildFunctionEvents(t);
  auto r = passes::EvaluateBudget(t, e, *b);
  REQUIRE(r.ok());
  CHECK((*r)[0].value == Approx(6851));                 // self device time per step, us
  CHECK((*r)[2].value == Approx(14455));                // mean step time, us
  CHECK((*r)[3].value == Approx(0.4934).margin(1e-4));  // gpu idle share
  CHECK((*r)[6].value == 3);                            // aten::bmm calls
  for (const auto& x : *r) CHECK(x.passed);
  auto bad = passes::ParseBudget(
      R"({"rules":[{"metric":"op_count","op":"x","max":1},{"metric":"op_count","max":1}]})",
      "b.json");
  // Errors say where the rule starts: rules[1] at byte 49, rules[0] at byte 10.
  CHECK(bad.status().message() ==
        "b.json: byte 49 (line 1, column 50): rules[1]: metric op_count needs \"op\"");
  auto nolimit = passes::ParseBudget(R"({"rules":[{"metric":"step_time"}]})", "b.json");
  CHECK(nolimit.status().message() ==
        "b.json: byte 10 (line 1, column 11): rules[0]: needs a limit: \"max\" or \"min\"");
}

TEST_CASE("diff and table take the same sort keys for the same columns", "[diff]") {
  // PyTorch's sort_by spelling, its 2.x device_* spelling and the short forms name one column.
  struct Same {
    const char* name;
    passes::DiffMetric diff;
    passes::SortKey table;
  };
  for (Same s :
       {Same{"self_cpu_time_total", passes::DiffMetric::kSelfCpu,
             passes::SortKey::kSelfCpuTimeTotal},
        Same{"self_cpu", passes::DiffMetric::kSelfCpu, passes::SortKey::kSelfCpuTimeTotal},
        Same{"self_cuda_time_total", passes::DiffMetric::kSelfDevice,
             passes::SortKey::kSelfCudaTimeTotal},
        Same{"self_device_time_total", passes::DiffMetric::kSelfDevice,
             passes::SortKey::kSelfCudaTimeTotal},
        Same{"self_cuda", passes::DiffMetric::kSelfDevice, passes::SortKey::kSelfCudaTimeTotal},
        Same{"self_device", passes::DiffMetric::kSelfDevice, passes::SortKey::kSelfCudaTimeTotal},
        Same{"cpu_time_total", passes::DiffMetric::kCpuTotal, passes::SortKey::kCpuTimeTotal},
        Same{"cpu_total", passes::DiffMetric::kCpuTotal, passes::SortKey::kCpuTimeTotal},
        Same{"cuda_time_total", passes::DiffMetric::kDeviceTotal, passes::SortKey::kCudaTimeTotal},
        Same{"device_total", passes::DiffMetric::kDeviceTotal, passes::SortKey::kCudaTimeTotal},
        Same{"count", passes::DiffMetric::kCount, passes::SortKey::kCount},
        Same{"calls", passes::DiffMetric::kCount, passes::SortKey::kCount}}) {
    INFO(s.name);
    Result<passes::DiffMetric> m = passes::ParseDiffMetric(s.name);
    Result<passes::SortKey> k = passes::ParseSortKey(s.name);
    REQUIRE(m.ok());
    REQUIRE(k.ok());
    CHECK(*m == s.diff);
    CHECK(*k == s.table);
  }
  // Diff has no memory; the message lists the metrics, not their aliases.
  CHECK(passes::ParseDiffMetric("self_cuda_memory_usage").status().message() ==
        "unknown metric \"self_cuda_memory_usage\" (expected one of: self, self_cpu, "
        "self_device, cpu_total, device_total, count)");
}

TEST_CASE("stacks --metric takes the spellings of self time that table --sort takes", "[diff]") {
  for (const char* name : {"self_cpu", "self_cpu_time_total", "self_cuda", "self_cuda_time_total",
                           "self_device", "self_device_time_total"}) {
    INFO(name);
    Result<passes::SortKey> k = passes::ParseSortKey(name);
    Result<passes::StackMetric> metric = passes::ParseStackMetric(name);
    REQUIRE(k.ok());
    REQUIRE(metric.ok());
    CHECK((*k == passes::SortKey::kSelfCpuTimeTotal) == (*metric == passes::StackMetric::kSelfCpu));
  }
  CHECK_FALSE(passes::ParseStackMetric("cuda_time_total").ok());  // stacks weigh self time
}
