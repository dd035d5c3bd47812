// How well the GPU is used, on the command line: copy bytes by direction against Nsight Systems'
// totals, and SM efficiency, occupancy, Tensor Cores and copies in steps and check.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "simdjson.h"
#include "test_util.h"

using namespace profana;

TEST_CASE("copy bytes by direction match Nsight Systems' cuda_gpu_mem_size_sum", "[efficiency]") {
  // nsys' report sums CUPTI_ACTIVITY_KIND_MEMCPY.bytes per copyKind (Total (MB) is bytes / 1e6):
  //   SELECT copyKind, count(*), sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY copyKind
  // fuser-thunder: HtoD (1) 2 copies, 394002434 bytes; DtoD (8) 1 copy, 62914560 bytes.
  // nsys-ai: HtoD 34 copies, 272 bytes; DtoD 986 copies, 8046134272 bytes.
  struct Row {
    const char* category;
    int64_t count, bytes;
  };
  struct Case {
    const char* file;
    std::vector<Row> rows;
  };
  const Case cases[] = {
      {"traces/nsys/fuser-thunder/report1.sqlite.gz",
       {{"memcpy_htod", 2, 394002434}, {"memcpy_dtod", 1, 62914560}}},
      {"traces/nsys/nsys-ai/mfu_2gpu_before.sqlite.gz",
       {{"memcpy_htod", 34, 272}, {"memcpy_dtod", 986, 8046134272}}},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    auto r = test::Run({"kernels", test::TestData(c.file), "--transfers", "--format", "json"});
    REQUIRE(r.code == 0);
    simdjson::dom::parser parser;
    simdjson::dom::element doc = parser.parse(r.out);
    for (const Row& want : c.rows) {
      bool found = false;
      for (simdjson::dom::element row : doc["rows"].get_array()) {
        if (std::string_view(row["name"]) != want.category) continue;
        found = true;
        CHECK(int64_t(row["count"]) == want.count);
        CHECK(int64_t(row["bytes"]) == want.bytes);
      }
      CHECK(found);
    }
  }
}

TEST_CASE("steps and check report SM efficiency, occupancy, Tensor Cores and copies",
          "[efficiency]") {
  std::string file = test::TestData("gpu/efficiency.json");
  auto r = test::Run({"steps", file, "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element row = parser.parse(r.out)["steps"].at(0);
  CHECK(double(row["sm_efficiency"]) == Approx(0.46875).epsilon(1e-12));
  CHECK(double(row["occupancy"]) == Approx(0.42).epsilon(1e-12));
  CHECK(double(row["tensor_core_share"]) == Approx(1.0 / 3).epsilon(1e-12));
  CHECK(int64_t(row["copy_bytes"]) == 5096);
  CHECK(double(row["copy_bandwidth_gbps"]) == Approx(5096.0 / 3000).epsilon(1e-12));
  CHECK(int64_t(row["copies"]["htod"]["bytes"]) == 4096);
  CHECK(double(row["copies"]["htod"]["bandwidth_gbps"]) == 2.048);
  CHECK(int64_t(row["pageable_bytes"]) == 4096);
  CHECK(int64_t(row["pinned_bytes"]) == 1000);
  // Budget rules on them: a job metric, measured on the steps.
  std::string budget = "/tmp/profana_efficiency_budget_" + std::to_string(::getpid()) + ".json";
  {
    FILE* f = std::fopen(budget.c_str(), "w");
    std::fputs(
        R"({"rules": [{"metric": "sm_efficiency", "min": 0.5},
                      {"metric": "tensor_core_share", "min": 0.3, "max": 0.4}]})",
        f);
    std::fclose(f);
  }
  auto check = test::Run({"check", file, "--budget", budget, "--format", "json"});
  std::remove(budget.c_str());
  CHECK(check.code == 1);
  simdjson::dom::element rules = parser.parse(check.out)["rules"];
  CHECK(double(rules.at(0)["value"]) == 0.469);  // 0.46875, the report's three decimals
  CHECK_FALSE(bool(rules.at(0)["passed"]));
  CHECK(double(rules.at(1)["value"]) == 0.333);
  CHECK(bool(rules.at(1)["passed"]));
}
