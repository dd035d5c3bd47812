// MFU and achieved FLOP/s, worked out by hand on live PyTorch 2.11 H100 sessions (testdata/live):
// which ops' FLOPs count, on which device and at which peak, per step; the copies that stall
// computation; `--peak-tflops`; the `mfu` budget rule; and the sums kept in a summary file.
// The expected figures come from a Python reading of each trace.json.gz that follows
// docs/semantics.md ("MFU") without profana: PyTorch's formulas on "Input Dims" (aten::mm:
// 2 * m * k * n; aten::addmm: the same on its second and third inputs), the outermost counted op
// of each thread, kernels matched to ops by their launch's correlation id and thread, the first
// tensor's "Input type", and the H100 SXM's dense peaks (fp32 67, bf16 989.5 TFLOP/s).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "simdjson.h"
#include "test_util.h"

using profana::test::TempPath;

using namespace profana;

TEST_CASE("steps: MFU, achieved FLOP/s and stalling copies by hand on a live session", "[mfu]") {
  // mlp_train/all (fp32, no Tensor Core kernels): each step runs 3 aten::addmm and 5 aten::mm on
  // the device, 136183808 FLOPs, 2.0325941492537308 us at 67 TFLOP/s; the walls are 2717197 and
  // 2179396 ns. Each step's one memcpy runs while no kernel does: it stalls the device.
  std::string file = test::TestData("live/mlp_train/all/trace.json.gz");
  auto r = test::Run({"steps", file, "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(r.out);
  simdjson::dom::array steps = doc["steps"];
  REQUIRE(steps.size() == 2);
  const double walls[] = {2717197, 2179396};
  const int64_t stalls[] = {736, 703};
  size_t i = 0;
  for (simdjson::dom::element row : steps) {
    CHECK(double(row["flops"]) == 136183808.0);
    CHECK(double(row["unpeaked_flops"]) == 0.0);
    CHECK(double(row["flops_at_peak"]) == Approx(2.0325941492537308).epsilon(1e-12));
    CHECK(double(row["mfu"]) == Approx(2032.5941492537308 / walls[i]).epsilon(1e-12));
    CHECK(double(row["achieved_flops_per_s"]) == Approx(136183808.0 / walls[i] * 1e9));
    CHECK(int64_t(row["copy_stall"]["count"]) == 1);
    CHECK(double(row["copy_stall"]["time"]) == static_cast<double>(stalls[i]) / 1000);
    CHECK(int64_t(row["copy_overlap"]["count"]) == 0);
    ++i;
  }
  CHECK(double(steps.at(0)["mfu"]) == Approx(0.0007480481353592436).epsilon(1e-12));
  CHECK(double(steps.at(1)["mfu"]) == Approx(0.0009326410387344617).epsilon(1e-12));
  CHECK(double(steps.at(0)["achieved_flops_per_s"]) == Approx(50119225069.069336));
  simdjson::dom::element mfu = doc["summary"]["mfu"];
  CHECK(int64_t(mfu["count"]) == 2);
  CHECK(double(mfu["max"]) == Approx(0.0009326410387344617).epsilon(1e-12));

  // One peak for every FLOP.
  auto p = test::Run({"steps", file, "--format", "json", "--peak-tflops", "100"});
  REQUIRE(p.code == 0);
  simdjson::dom::element first = parser.parse(p.out)["steps"].at(0);
  CHECK(double(first["mfu"]) == Approx(136183808.0 / (walls[0] * 1e-9 * 100e12)).epsilon(1e-12));
  CHECK(test::Run({"steps", file, "--peak-tflops", "0"}).code == 2);

  // The text table's columns: MFU 0.1 % (0.0935 rounds up), 0.050 and 0.062 TFLOP/s.
  auto text = test::Run({"steps", file, "-q"});
  REQUIRE(text.code == 0);
  CHECK(text.out.find("MFU %") != std::string::npos);
  CHECK(text.out.find("0.050") != std::string::npos);
  CHECK(text.out.find("0.062") != std::string::npos);
}

TEST_CASE("the mfu budget rule, and MFU from a summary file", "[mfu]") {
  std::string file = test::TestData("live/mlp_train/all/trace.json.gz");
  std::string budget = TempPath("budget.json");
  {
    FILE* f = std::fopen(budget.c_str(), "w");
    std::fputs(R"({"rules": [{"metric": "mfu", "min": 0.001},
                             {"metric": "mfu", "per_step": true, "min": 0.0005},
                             {"metric": "mfu", "peak_tflops": 0.1, "max": 0.5}]})",
               f);
    std::fclose(f);
  }
  auto check = test::Run({"check", file, "--budget", budget, "--format", "json"});
  std::remove(budget.c_str());
  CHECK(check.code == 1);
  simdjson::dom::parser parser;
  simdjson::dom::element rules = parser.parse(check.out)["rules"];
  // Overall: both steps' time at peak over both walls, 4065.19 / 4896593 = 0.00083.
  CHECK(double(rules.at(0)["value"]) == 0.001);  // the report's three decimals
  CHECK_FALSE(bool(rules.at(0)["passed"]));
  CHECK(bool(rules.at(1)["passed"]));  // the worst step, 0.00075, holds
  // One peak of 0.1 TFLOP/s: 272367616 FLOPs over 4896593 ns of steps at 1e11 FLOP/s, 0.5562.
  CHECK(double(rules.at(2)["value"]) == 0.556);
  CHECK_FALSE(bool(rules.at(2)["passed"]));

  // peak_tflops belongs to mfu, and is a peak.
  for (const char* rule : {R"({"metric": "idle_share", "peak_tflops": 1, "max": 1})",
                           R"({"metric": "mfu", "peak_tflops": 0, "min": 0.1})"}) {
    FILE* f = std::fopen(budget.c_str(), "w");
    std::fputs((std::string(R"({"rules": [)") + rule + "]}").c_str(), f);
    std::fclose(f);
    auto bad = test::Run({"check", file, "--budget", budget});
    std::remove(budget.c_str());
    CHECK(bad.code == 2);
    CHECK(bad.err.find("peak_tflops") != std::string::npos);
  }

  // The sums survive a summary file: steps on it says what steps on the trace says.
  std::string summary = TempPath("mlp.pfs");
  REQUIRE(test::Run({"summarize", file, "-o", summary}).code == 0);
  auto from_trace = test::Run({"steps", file, "--format", "csv"});
  auto from_summary = test::Run({"steps", summary, "--format", "csv"});
  std::remove(summary.c_str());
  REQUIRE(from_summary.code == 0);
  CHECK(from_summary.out == from_trace.out);
  CHECK(from_trace.out.find(",136183808,0,2.033,0,0.000,1,0.736") != std::string::npos);
}

TEST_CASE("table's JSON: achieved FLOP/s per row from PyTorch's own FLOPs and device time",
          "[mfu]") {
  // flops_zoo's table_flops.txt (PyTorch's key_averages().table()): aten::conv2d, 37748.736
  // KFLOPs in 73.986 us of CUDA total; aten::addmm 11534.336 KFLOPs in 24.962 us.
  auto r = test::Run(
      {"table", test::TestData("live/flops_zoo/flops/trace.json.gz"), "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  int found = 0;
  for (simdjson::dom::element row : parser.parse(r.out)["rows"].get_array()) {
    std::string_view name = row["name"];
    if (name == "aten::conv2d") {
      CHECK(uint64_t(row["flops"]) == 37748736u);
      CHECK(double(row["flops_per_s"]) == Approx(37748736.0 / 73.986e-6).epsilon(1e-12));
      ++found;
    } else if (name == "aten::addmm") {
      CHECK(uint64_t(row["flops"]) == 11534336u);
      CHECK(double(row["flops_per_s"]) == Approx(11534336.0 / 24.962e-6).epsilon(1e-12));
      ++found;
    } else if (name == "aten::convolution") {
      CHECK(row["flops_per_s"].is_null());  // PyTorch counts no FLOPs of its own
      ++found;
    }
  }
  CHECK(found == 3);
}

TEST_CASE("kernels --by-op: achieved FLOP/s of the ops that launch their kernels", "[mfu]") {
  // flops_zoo: aten::addmm launches its own kernels, 24.962 us of them (PyTorch's Self CUDA), for
  // 11534.336 KFLOPs; aten::mm 3145.728 KFLOPs in 11.040 us. aten::conv2d's kernels are launched
  // by aten::cudnn_convolution, which PyTorch counts no FLOPs for.
  auto r = test::Run({"kernels", test::TestData("live/flops_zoo/flops/trace.json.gz"), "--by-op",
                      "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  int found = 0;
  for (simdjson::dom::element row : parser.parse(r.out)["rows"].get_array()) {
    std::string_view name = row["name"];
    if (name == "aten::addmm") {
      CHECK(double(row["total"]) == 24.962);
      CHECK(int64_t(row["flops"]) == 11534336);
      CHECK(double(row["flops_per_s"]) == Approx(11534336.0 / 24.962e-6).epsilon(1e-12));
      ++found;
    } else if (name == "aten::mm") {
      CHECK(int64_t(row["flops"]) == 3145728);
      CHECK(double(row["flops_per_s"]) == Approx(3145728.0 / 11.040e-6).epsilon(1e-12));
      ++found;
    } else if (name == "aten::cudnn_convolution") {
      CHECK(row["flops"].is_null());
      CHECK(row["flops_per_s"].is_null());
      ++found;
    }
  }
  CHECK(found == 3);
}

TEST_CASE("a device the peak table does not know: a note, and --peak-tflops", "[mfu]") {
  // One 400 us step; aten::mm of 1024x1024 by 1024x1024 is 2 * 1024^3 = 2147483648 FLOPs, 5.369
  // TFLOP/s over the step. At 10 TFLOP/s they take 214748.3648 ns: MFU 0.536870912.
  std::string file = test::TestData("gpu/mfu_unknown_device.json");
  auto r = test::Run({"steps", file, "--format", "json"});
  REQUIRE(r.code == 0);
  CHECK(r.err.find("no MFU for FLOPs on Example Accelerator 9000: not in the peak table") !=
        std::string::npos);
  simdjson::dom::parser parser;
  simdjson::dom::element row = parser.parse(r.out)["steps"].at(0);
  CHECK(row["mfu"].is_null());
  CHECK(double(row["flops"]) == 2147483648.0);
  CHECK(double(row["unpeaked_flops"]) == 2147483648.0);
  CHECK(double(row["achieved_flops_per_s"]) == Approx(2147483648.0 / 400e-6).epsilon(1e-12));
  auto p = test::Run({"steps", file, "--format", "json", "--peak-tflops", "10"});
  REQUIRE(p.code == 0);
  CHECK(p.err.empty());
  row = parser.parse(p.out)["steps"].at(0);
  CHECK(double(row["mfu"]) == Approx(0.536870912).epsilon(1e-12));
  CHECK(double(row["unpeaked_flops"]) == 0.0);
}

TEST_CASE("copies that overlap computation and copies that stall it, on HTA's two ranks", "[mfu]") {
  // Worked out in Python from the two traces and the step windows (profana sql's step table):
  // per (rank, step), the memcpys and memsets starting in the window, by whether a computation
  // kernel of their device ran at some time during them.
  auto r = test::Run({"steps", test::TestData("traces/hta/trace_filter"), "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::array steps = parser.parse(r.out)["steps"];
  REQUIRE(steps.size() == 4);
  const int64_t expected[4][4] = {{3, 14000, 22, 648000},
                                  {2, 8000, 23, 655000},
                                  {4, 16000, 21, 2651000},
                                  {3, 11396000, 22, 2441000}};
  for (size_t i = 0; i < 4; ++i) {
    simdjson::dom::element row = steps.at(i);
    CHECK(int64_t(row["copy_overlap"]["count"]) == expected[i][0]);
    CHECK(double(row["copy_overlap"]["time"]) == static_cast<double>(expected[i][1]) / 1000);
    CHECK(int64_t(row["copy_stall"]["count"]) == expected[i][2]);
    CHECK(double(row["copy_stall"]["time"]) == static_cast<double>(expected[i][3]) / 1000);
  }
}
