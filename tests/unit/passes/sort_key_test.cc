// The table's sort keys: PyTorch's names and short aliases, a stable descending sort.
#include <catch2/catch.hpp>
#include <vector>

#include "profana/passes/key_averages.h"

using namespace profana;

TEST_CASE("sort keys accept PyTorch's names and short aliases", "[sort]") {
  CHECK(*passes::ParseSortKey("self_cpu_time_total") == passes::SortKey::kSelfCpuTimeTotal);
  CHECK(*passes::ParseSortKey("self_cuda") == passes::SortKey::kSelfCudaTimeTotal);
  Result<passes::SortKey> bad = passes::ParseSortKey("wall_time");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().rfind("unknown key \"wall_time\" (expected one of: cpu_time, ", 0) ==
        0);
  // Stable and descending, as Python's sorted(reverse=True).
  std::vector<passes::AverageRow> rows(3);
  rows[0].count = 1;
  rows[1].count = 5;
  rows[2].count = 1;
  rows[0].cpu_memory = 10;
  rows[2].cpu_memory = 20;
  passes::SortRows(&rows, passes::SortKey::kCount);
  CHECK(rows[0].count == 5);
  CHECK(rows[1].cpu_memory == 10);
  CHECK(rows[2].cpu_memory == 20);
}
