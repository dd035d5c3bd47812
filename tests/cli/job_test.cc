// Whole-job commands run on testdata/job/two_ranks and on real multi-rank traces: steps and
// kernels across ranks (worked out below), --ranks, one file of several processes, and an Nsight
// Systems export of a two-GPU job.
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <thread>
#include <vector>

#include "simdjson.h"
#include "test_util.h"

using namespace profana;
using profana::test::Run;
using profana::test::TestData;

TEST_CASE("steps on two hand-made ranks: per-rank rows and statistics across them", "[job]") {
  // rank0.json: walls 110 and 40 us (tests/unit/job/job_test.cc works it out). worker1.json has
  // no distributedInfo: rank 1 from its name. Its step 1 [100,220) launches an NCCL kernel
  // [160,230) outside any computation (gemm [120,150)): window [100,230) = 130 us, computation
  // 30, exposed communication 70 (none hidden: 0%), idle 30; host: dataloader 8, optimizer 15,
  // covered 38, untraced 82. Step 2 [230,260) = 30 us: gemm [235,255) 20, idle 10.
  // Walls 110, 40, 130, 30: mean 77.5, median 75, p95 110 + 0.85 * 20 = 127, min 30, max 130.
  // Slowest step: rank 1, step 1; slowest rank by mean step: rank 1 (80 against 75).
  auto r = Run({"steps", TestData("job/two_ranks"), "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element j = parser.parse(r.out);
  CHECK(std::string_view(j["schema"]) == "profana.steps/1");
  simdjson::dom::array steps = j["steps"];
  REQUIRE(steps.size() == 4);
  simdjson::dom::element r1s1 = steps.at(2);
  CHECK(int64_t(r1s1["rank"]) == 1);
  CHECK(double(r1s1["wall"]) == 130);
  CHECK(double(r1s1["comm_exposed"]) == 70);
  CHECK(double(r1s1["comm_hidden_share"]) == 0);
  CHECK(double(r1s1["idle"]) == 30);
  CHECK(double(r1s1["host_dataloader"]) == 8);
  CHECK(double(r1s1["host_optimizer"]) == 15);
  CHECK(double(r1s1["host_untraced"]) == 82);
  simdjson::dom::element wall = j["summary"]["wall"];
  CHECK(double(wall["mean"]) == 77.5);
  CHECK(double(wall["median"]) == 75);
  CHECK(double(wall["p95"]) == Approx(127));
  CHECK(double(wall["min"]) == 30);
  CHECK(double(wall["max"]) == 130);
  CHECK(double(j["summary"]["comm_hidden_share"]["mean"]) == Approx(0.3));
  CHECK(int64_t(j["slowest_step"]["rank"]) == 1);
  CHECK(int64_t(j["slowest_step"]["step"]) == 1);
  CHECK(int64_t(j["slowest_rank"]["rank"]) == 1);
}

TEST_CASE("kernels on two hand-made ranks: counts, totals, shares and spread", "[job]") {
  // gemm: 60, 25 (rank 0), 30, 20 (rank 1) us: 4, total 135, mean 33.75, median 27.5, sample std
  // dev 17.970. NCCL: 50, 70: mean 60, std dev 14.142. One memcpy HtoD of 20 us. Device time
  // 275 us: gemm 49.09%, NCCL 43.64%, memcpy 7.27%.
  auto r = Run({"kernels", TestData("job/two_ranks"), "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element j = parser.parse(r.out);
  CHECK(double(j["total"]) == 275);
  simdjson::dom::array rows = j["rows"];
  REQUIRE(rows.size() == 3);
  simdjson::dom::element gemm = rows.at(0);
  CHECK(std::string_view(gemm["name"]) == "void gemm<float>(float*)");
  CHECK(std::string_view(gemm["category"]) == "computation");
  CHECK(int64_t(gemm["count"]) == 4);
  CHECK(double(gemm["total"]) == 135);
  CHECK(double(gemm["mean"]) == 33.75);
  CHECK(double(gemm["median"]) == 27.5);
  CHECK(double(gemm["stddev"]) == Approx(17.970).epsilon(1e-4));
  CHECK(double(gemm["share"]) == Approx(135.0 / 275));
  simdjson::dom::element nccl = rows.at(1);
  CHECK(std::string_view(nccl["category"]) == "communication");
  CHECK(double(nccl["stddev"]) == Approx(14.142).epsilon(1e-4));
  CHECK(std::string_view(rows.at(2)["category"]) == "memcpy_htod");

  // The API view: cudaLaunchKernel 5, 4, 3 and 4, 3, 3 us.
  auto api = Run({"kernels", TestData("job/two_ranks"), "--api", "--format", "csv"});
  REQUIRE(api.code == 0);
  CHECK(api.out.find("cudaLaunchKernel,api,6,22.000,") != std::string::npos);
}

TEST_CASE("kernels --sort orders the rows by count, mean, min, max or name", "[job]") {
  // gemm: 4 kernels, 135 us, mean 33.75, min 20, max 60; NCCL: 2, 120, mean 60, min 50, max 70;
  // the memcpy: 1 of 20 us.
  auto first_column = [](const std::string& csv) {
    std::vector<std::string> names;
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line)) names.push_back(line.substr(0, line.find(',')));
    return names;
  };
  auto order = [&](const char* key) {
    auto r = Run({"kernels", TestData("job/two_ranks"), "--sort", key, "--format", "csv"});
    REQUIRE(r.code == 0);
    return first_column(r.out);
  };
  const std::string gemm = "void gemm<float>(float*)",
                    nccl = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)",
                    copy = "Memcpy HtoD (Pageable -> Device)";
  using Names = std::vector<std::string>;
  CHECK(order("total") == Names{gemm, nccl, copy});
  CHECK(order("count") == Names{gemm, nccl, copy});
  CHECK(order("mean") == Names{nccl, gemm, copy});
  CHECK(order("max") == Names{nccl, gemm, copy});
  CHECK(order("min") == Names{nccl, copy, gemm});  // 20 us each: ties by name
  CHECK(order("name") == Names{copy, nccl, gemm});
  // The heading says which rows a limit keeps: the longest only when the rows are by total.
  auto heading = [](const char* key) {
    std::string out = Run({"kernels", TestData("job/two_ranks"), "--sort", key, "-n", "1"}).out;
    return out.substr(0, out.find('\n'));
  };
  CHECK(heading("total") ==
        "7 device activities on 2 ranks (0,1): 275.000us in total; the 1 longest of 3 rows shown");
  CHECK(heading("name") ==
        "7 device activities on 2 ranks (0,1): 275.000us in total; the first 1 of 3 rows shown");
  auto bad = Run({"kernels", TestData("job/two_ranks"), "--sort", "totl"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("--sort: unknown key \"totl\"; did you mean \"total\"?") != std::string::npos);
}

TEST_CASE("two inputs of one rank are an error naming both; --ranks selects", "[job]") {
  std::string r0 = TestData("job/two_ranks/rank0.json");
  auto dup = Run({"steps", r0, r0});
  CHECK(dup.code == 2);
  CHECK(dup.err.find(r0 + " and " + r0 + " are both rank 0") != std::string::npos);
  auto one = Run({"kernels", TestData("job/two_ranks"), "--ranks", "1", "--format", "json"});
  REQUIRE(one.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element j = parser.parse(one.out);
  CHECK(double(j["total"]) == 120);  // rank 1 only: 30 + 70 + 20
  auto none = Run({"steps", TestData("job/two_ranks"), "--ranks", "5"});
  CHECK(none.code == 2);
  CHECK(none.err.find("--ranks keeps none of the 2 inputs (their ranks: 0,1)") !=
        std::string::npos);
}

TEST_CASE("one rank selected from a directory prints that trace's own table", "[job]") {
  // A single rank keeps PyTorch's float sums: the table is the single-trace table under a
  // "1 rank (3), summed" line.
  std::string dir = TestData("traces/param/dlrm_kineto");
  auto job = Run({"table", dir, "--ranks", "3"});
  auto single = Run({"table", dir + "/worker3_step_12.1694128201557.pt.trace.json.gz"});
  REQUIRE(job.code == 0);
  REQUIRE(single.code == 0);
  REQUIRE(job.out.rfind("1 rank (3), summed\n", 0) == 0);
  CHECK(job.out.substr(job.out.find('\n') + 1) == single.out);
  // And the steps of one trace are the directory's rows of that rank.
  auto steps = Run({"steps", dir, "--ranks", "3", "--format", "csv"});
  auto one =
      Run({"steps", dir + "/worker3_step_12.1694128201557.pt.trace.json.gz", "--format", "csv"});
  CHECK(steps.out == one.out);
}

TEST_CASE("one file of several processes is one rank per process", "[job]") {
  // testdata/job/two_processes/node0.json: processes 100 and 200 on one node. 100 launches gemm_a
  // (10 us, device 0); 200 launches gemm_b on device 1 (20 us) and on device 0 (3 us), and an
  // NCCL kernel on device 1 has no launch. Device 0 has one launch from each (a tie: the lower
  // pid owns it), device 1 only 200's: the unlaunched kernel goes to 200. So rank 0 (pid 100):
  // aten::mm with 10 us of CUDA time, gemm_a; rank 1 (pid 200): aten::mm with 23 us, two gemm_b,
  // the NCCL kernel. Nothing is lost or counted twice: 4 device activities, 38 us.
  std::string file = TestData("job/two_processes/node0.json");
  auto r = Run({"table", file, "--by-rank", "--format", "json", "-q"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::array ranks = parser.parse(r.out);
  REQUIRE(ranks.size() == 2);
  auto rows = [](simdjson::dom::element table) {
    std::vector<std::string> out;
    for (simdjson::dom::element row : simdjson::dom::array(table["rows"]))
      out.push_back(std::string(std::string_view(row["name"])) + " " +
                    std::to_string(int64_t(row["count"])) + " " +
                    std::to_string(int64_t(row["self_cuda_time_total_us"])));
    return out;
  };
  CHECK(int64_t(ranks.at(0)["rank"]) == 0);
  CHECK(rows(ranks.at(0)) ==
        std::vector<std::string>{"aten::mm 1 10", "cudaLaunchKernel 1 0", "gemm_a 1 10"});
  CHECK(int64_t(ranks.at(1)["rank"]) == 1);
  CHECK(rows(ranks.at(1)) == std::vector<std::string>{"aten::mm 1 23", "cudaLaunchKernel 2 0",
                                                      "gemm_b 2 23", "nccl_unlaunched 1 5"});
  auto k = Run({"kernels", file, "-q"});
  CHECK(k.out.find("4 device activities on 2 ranks (0,1): 38.000us in total") != std::string::npos);
  // A single-trace command keeps the file whole.
  auto whole = Run({"table", file, "--format", "json", "-q"});
  CHECK(whole.out.find("\"ranks\"") == std::string::npos);
}

TEST_CASE("an Nsight Systems export of a two-GPU torchrun job is two ranks", "[job]") {
  // nsys-ai mfu_2gpu_after: processes 148 and 149, one GPU each. The file's 4,733 device
  // activities split 2,366 / 2,367 between them (none lost, none twice), and the NCCL send/recv
  // kernels of the two ranks match as collectives.
  std::string file = TestData("traces/nsys/nsys-ai/mfu_2gpu_after.sqlite.gz");
  auto all = Run({"kernels", file, "-q", "-n", "1"});
  REQUIRE(all.code == 0);
  CHECK(all.out.find("4733 device activities on 2 ranks (0,1)") != std::string::npos);
  CHECK(Run({"kernels", file, "-q", "-n", "1", "--ranks", "0"})
            .out.find("2366 device activities on 1 rank (0)") != std::string::npos);
  CHECK(Run({"kernels", file, "-q", "-n", "1", "--ranks", "1"})
            .out.find("2367 device activities on 1 rank (1)") != std::string::npos);
  auto c = Run({"collectives", file, "-q", "--format", "json"});
  REQUIRE(c.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element j = parser.parse(c.out);
  CHECK(int64_t(j["matched"]) == 31);
  CHECK(simdjson::dom::array(j["ranks"]).size() == 2);
}
