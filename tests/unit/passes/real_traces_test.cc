// Every real trace in testdata/traces (38 files, 2020-2026, CUDA/ROCm/MTIA/CPU) imports without
// a fatal error or an error-severity diagnostic, and its function events keep the invariants
// PyTorch's tree has.
#include <catch2/catch.hpp>
#include <filesystem>

#include "profana/base/memory_release.h"
#include "profana/importers/importer.h"
#include "profana/passes/event_times.h"
#include "profana/passes/function_events.h"
#include "profana/passes/key_averages.h"
#include "test_util.h"

namespace fs = std::filesystem;

TEST_CASE("every real trace imports cleanly and its tree is consistent", "[traces]") {
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(profana::test::TestData("traces")))
    if (e.is_regular_file() && e.path().string().find(".json") != std::string::npos)
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 38);
  for (const std::string& file : files) {
    INFO(file);
    auto loaded = profana::LoadTrace(file);
    REQUIRE(loaded.ok());
    const profana::Trace* trace = &loaded->trace;
    CHECK(trace->diagnostics.CountAtLeast(profana::Severity::kError) == 0);
    CHECK(trace->events.size() > 0);
    auto events = profana::passes::BuildFunctionEvents(*trace);
    // Children lie inside their parent on the same thread; self time sums to top-level time.
    int64_t self_sum = 0, top_sum = 0, broken = 0;
    profana::passes::EventTimes times(*trace, events);
    for (size_t i = 0; i < events.size(); ++i) {
      for (uint32_t k = events.child_begin[i]; k < events.child_begin[i + 1]; ++k) {
        uint32_t c = events.child_index[k].value;
        broken += events.parent[c] != profana::FnEventId(static_cast<uint32_t>(i)) ||
                  events.start_ns[c] < events.start_ns[i] || events.end_ns[c] > events.end_ns[i] ||
                  events.thread[c] != events.thread[i];
      }
      self_sum += times[i].self_cpu_ns;
      // Async events (c10d titles) are top level with no self time, as in PyTorch.
      if (!events.parent[i].valid() && !events.IsAsync(i)) top_sum += times[i].cpu_total_ns;
    }
    CHECK(broken == 0);
    CHECK(self_sum == top_sum);
    // key_averages loses nothing: counts add up to the events.
    auto rows = profana::passes::ComputeKeyAverages(*trace, events, {});
    CHECK(profana::passes::TotalAverage(rows).count == static_cast<int64_t>(events.size()));
  }
}

TEST_CASE("TensorList arguments group as PyTorch groups them: an empty shape", "[traces][shapes]") {
  // A MI300X ResNet job (PyTorch 2.x with concrete inputs recorded): each c10d::broadcast_ writes
  // its TensorList's sizes nested in "Input Dims" ([[[9600]], [], ...]: three tensor sizes, so
  // three shape groups if the nesting were kept). PyTorch's FunctionEvent.input_shapes has [] for
  // a TensorList, so key_averages(group_by_input_shape=True) shows one row of 6 calls.
  auto loaded = profana::LoadTrace(
      profana::test::TestData("traces/tracelens/mi300/resnet_act_checkpoint.json.gz"));
  REQUIRE(loaded.ok());
  const profana::Trace& trace = loaded->trace;
  auto events = profana::passes::BuildFunctionEvents(trace);
  profana::passes::KeyAverageOptions options;
  options.group_by_input_shape = true;
  auto rows = profana::passes::ComputeKeyAverages(trace, events, options);
  int broadcast_rows = 0;
  for (const auto& r : rows) {
    if (trace.str(r.key) != "c10d::broadcast_") continue;
    ++broadcast_rows;
    CHECK(r.count == 6);
    CHECK(trace.str(r.input_shapes) == "[[], [], [], [], [], []]");
  }
  CHECK(broadcast_rows == 1);
}

namespace {
int releases = 0;
void CountRelease() { ++releases; }
}  // namespace

TEST_CASE("building function events gives freed memory back where the application asks",
          "[traces]") {
  // Once after kernel attribution (its indexes by id), once after the candidates are compact
  // (before the memory bytes and the CUDA totals are made), once at the end.
  auto with_memory = profana::LoadTrace(profana::test::TestData("memory/categories.json"));
  auto without = profana::LoadTrace(profana::test::TestData("gpu/tree_fold.json"));
  REQUIRE(with_memory.ok());
  REQUIRE(without.ok());
  REQUIRE(with_memory->trace.memory.size() > 0);
  REQUIRE(without->trace.memory.size() == 0);
  profana::SetFreedMemoryRelease(CountRelease);
  releases = 0;
  profana::passes::BuildFunctionEvents(with_memory->trace);
  CHECK(releases == 3);
  releases = 0;
  profana::passes::BuildFunctionEvents(without->trace);
  CHECK(releases == 3);
  profana::SetFreedMemoryRelease(nullptr);
  releases = 0;
  profana::passes::BuildFunctionEvents(with_memory->trace);
  CHECK(releases == 0);
}
