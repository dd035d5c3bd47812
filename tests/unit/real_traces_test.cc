// Every real trace in testdata/traces (38 files, 2020-2026, CUDA/ROCm/MTIA/CPU) imports without
// a fatal error or an error-severity diagnostic, and its function events keep the invariants
// PyTorch's tree has.
#include <catch2/catch.hpp>
#include <filesystem>

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
      if (!events.parent[i].valid()) top_sum += times[i].cpu_total_ns;
    }
    CHECK(broken == 0);
    CHECK(self_sum == top_sum);
    // key_averages loses nothing: counts add up to the events.
    auto rows = profana::passes::ComputeKeyAverages(*trace, events, {});
    CHECK(profana::passes::TotalAverage(rows).count == static_cast<int64_t>(events.size()));
  }
}
