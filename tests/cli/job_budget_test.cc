// `profana check JOB --budget`: budget rules measured on a whole job (job/job_budget.h), on the
// hand-made two-rank job (testdata/job/two_ranks, values worked out in its README.md and in
// job_test.cc) and on the real 8-rank DLRM job (testdata/traces/param/dlrm_kineto).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "simdjson.h"
#include "test_util.h"

using profana::test::Run;
using profana::test::TestData;

namespace {

// The check's JSON rules, parsed; `code` is the exit code check must return.
simdjson::dom::array Rules(simdjson::dom::parser& parser, std::string* text,
                           const std::vector<std::string>& args, int code) {
  std::vector<std::string> argv = {"check"};
  argv.insert(argv.end(), args.begin(), args.end());
  for (const char* a : {"--format", "json", "-q"}) argv.push_back(a);
  auto r = Run(argv);
  INFO(r.err);
  REQUIRE(r.code == code);
  *text = r.out;
  return parser.parse(*text)["rules"];
}

}  // namespace

TEST_CASE("job budgets on two hand-made ranks: each metric at its worked-out value",
          "[budget][job]") {
  // Step walls (us): rank 0 steps 1, 2: 110, 40 (mean 75); rank 1: 130, 30 (mean 80).
  //   max_step_time: the slowest rank's mean, 80 (rank 1); per step, the longest wall, 130.
  //   rank_skew: 80 - 75 = 5; per step: step 1 130 - 110 = 20, step 2 40 - 30 = 10: 20.
  // Exposed communication 20, 0, 70, 0 over the same walls (310 in all): 90 / 310 = 0.2903;
  //   per step the worst is rank 1's step 1, 70 / 130 = 0.5385.
  // Idle 20, 15, 30, 10: 75 / 310 = 0.2419; per step 0.1818, 0.375, 0.2308, 0.3333: the highest,
  //   0.375 (rank 0, step 2) for a rule with a max.
  // Kernels: gemm 135 of 275 us of device time, 0.4909.
  // Key averages summed over the ranks: device time 275 us, over 4 (rank, step) pairs 68.75;
  //   ProfilerStep#N durations 100, 50, 120, 40: mean 77.5; aten::mm 4 calls.
  simdjson::dom::parser parser;
  std::string text;
  simdjson::dom::array pass = Rules(
      parser, &text,
      {TestData("job/two_ranks"), "--budget", TestData("budgets/job-two-ranks-pass.json")}, 0);
  REQUIRE(pass.size() == 13);
  std::vector<double> expected = {80,    130,   5,   20,    0.290, 0.538, 0.242,
                                  0.375, 0.491, 275, 68.75, 77.5,  4};
  size_t i = 0;
  for (simdjson::dom::element rule : pass) {
    INFO("rule " << i);
    CHECK(bool(rule["passed"]));
    CHECK(double(rule["value"]) == Approx(expected[i++]));
  }
  CHECK(std::string_view(pass.at(0)["note"]) == "rank 1");
  CHECK(std::string_view(pass.at(1)["note"]) == "worst: rank 1, step 1");
  CHECK(std::string_view(pass.at(3)["note"]) == "worst: step 1");
  CHECK(std::string_view(pass.at(7)["note"]) == "worst: rank 0, step 2, device 0");
  // A glob of the same files is the same job.
  CHECK(Run({"check", TestData("job/two_ranks/*.json"), "--budget",
             TestData("budgets/job-two-ranks-pass.json"), "-q"})
            .code == 0);

  // Limits just past those values: all fail but comm_exposed_share (0.2903 <= 0.30).
  //   max_step_time 80 > 79; per step 130 > 120; rank_skew per step 20 > 15; comm_exposed_share
  //   per step 0.5385 > 0.50; idle_share per step with only a min of 0.20: the lowest step,
  //   rank 0's step 1, 20 / 110 = 0.1818; idle_share on device 1 (rank 1): (30 + 10) / (130 +
  //   30) = 0.25 > 0.24; the NCCL kernel 50 + 70 = 120 of 275 us, 0.4364 > 0.40.
  simdjson::dom::array fail = Rules(
      parser, &text,
      {TestData("job/two_ranks"), "--budget", TestData("budgets/job-two-ranks-fail.json")}, 1);
  REQUIRE(fail.size() == 8);
  std::vector<double> values = {80, 130, 20, 0.290, 0.538, 0.182, 0.25, 0.436};
  i = 0;
  for (simdjson::dom::element rule : fail) {
    INFO("rule " << i);
    CHECK(bool(rule["passed"]) == (i == 3));
    CHECK(double(rule["value"]) == Approx(values[i++]));
  }
  CHECK(std::string_view(fail.at(5)["note"]) == "worst: rank 0, step 1, device 0");
  auto text_run = Run({"check", TestData("job/two_ranks"), "--budget",
                       TestData("budgets/job-two-ranks-fail.json")});
  CHECK(text_run.code == 1);
  CHECK(text_run.err.find("7 of 8 rules failed") != std::string::npos);
  CHECK(text_run.out.find("FAIL  rank_skew per step") != std::string::npos);
}

TEST_CASE("job metrics on one trace: the trace is a job of one rank", "[budget][job]") {
  // rank0.json alone: walls 110, 40 (mean 75); no other rank, so no skew. Exposed communication
  // 20 of 150 us, 0.1333; idle 35 of 150, 0.2333; gemm 85 of 155 us of device time, 0.5484.
  simdjson::dom::parser parser;
  std::string text;
  simdjson::dom::array r = Rules(parser, &text,
                                 {TestData("job/two_ranks/rank0.json"), "--budget",
                                  TestData("budgets/job-two-ranks-pass.json")},
                                 1);
  CHECK(double(r.at(0)["value"]) == 75);
  CHECK(double(r.at(2)["value"]) == 0);
  CHECK(std::string_view(r.at(2)["note"]) == "one rank");
  CHECK(double(r.at(4)["value"]) == Approx(0.133));
  CHECK(double(r.at(6)["value"]) == Approx(0.233));
  CHECK(double(r.at(8)["value"]) == Approx(0.548));
  CHECK_FALSE(bool(r.at(8)["passed"]));
}

TEST_CASE("job budgets on the 8-rank DLRM job, and on its merged summary", "[budget][job]") {
  // `profana steps DIR`: one step (10) per rank, walls (us) 14455, 19901, 13017, 19313, 17979,
  // 17797, 13091, 12509 (128062 in all): the slowest rank 1 (19901), the fastest rank 7, skew
  // 19901 - 12509 = 7392. Exposed communication 5537 + 11056 + 3217 + 9450 + 6550 + 6211 + 3289
  // + 1580 = 46890: 46890 / 128062 = 0.3662; the worst, rank 1, 11056 / 19901 = 0.5556. Idle
  // 72148 / 128062 = 0.5634; the worst, rank 7, 9850 / 12509 = 0.7874. `profana kernels DIR`:
  // ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t 37935 of 57576 us, 0.6589.
  std::string dlrm = TestData("traces/param/dlrm_kineto");
  std::string dir = "/tmp/profana_job_budget_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::string budget = dir + "/budget.json";
  {
    std::FILE* f = std::fopen(budget.c_str(), "w");
    REQUIRE(f);
    std::fputs(R"J({"rules": [
      {"metric": "max_step_time", "max": 20000},
      {"metric": "rank_skew", "max": 5000},
      {"metric": "comm_exposed_share", "max": 0.40},
      {"metric": "comm_exposed_share", "per_step": true, "max": 0.50},
      {"metric": "idle_share", "max": 0.60},
      {"metric": "idle_share", "per_step": true, "max": 0.80},
      {"metric": "kernel_share", "op": "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(...)",
       "max": 0.70},
      {"metric": "op_self_device_time", "op": "record_param_comms", "max": 50000}
    ]})J",
               f);
    std::fclose(f);
  }
  simdjson::dom::parser parser;
  std::string text;
  simdjson::dom::array r = Rules(parser, &text, {dlrm, "--budget", budget}, 1);
  REQUIRE(r.size() == 8);
  std::vector<double> values = {19901, 7392, 0.366, 0.556, 0.563, 0.787, 0.659, 48542};
  size_t i = 0;
  for (simdjson::dom::element rule : r) {
    INFO("rule " << i);
    CHECK(bool(rule["passed"]) == (i != 1 && i != 3));  // the skew and the worst rank's comm
    CHECK(double(rule["value"]) == Approx(values[i++]));
  }
  CHECK(std::string_view(r.at(0)["note"]) == "rank 1");
  CHECK(std::string_view(r.at(1)["note"]) == "rank 1 against rank 7");
  std::string from_traces = simdjson::minify(r);

  // Each rank summarised on its own, the summaries merged: the same rules, the same values.
  std::vector<std::string> merge = {"merge"};
  for (const auto& e : std::filesystem::directory_iterator(dlrm)) {
    std::string out = dir + "/" + e.path().filename().string() + ".pfs";
    REQUIRE(Run({"summarize", "-q", e.path().string(), "-o", out}).code == 0);
    merge.push_back(out);
  }
  merge.insert(merge.end(), {"-o", dir + "/job.pfs"});
  REQUIRE(Run(merge).code == 0);
  simdjson::dom::parser parser2;
  std::string text2;
  simdjson::dom::array s = Rules(parser2, &text2, {dir + "/job.pfs", "--budget", budget}, 1);
  CHECK(simdjson::minify(s) == from_traces);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a budget a job cannot measure is exit 2 naming the rule", "[budget][job]") {
  std::string dir = "/tmp/profana_job_budget_bad_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const char* json) {
    std::string path = dir + "/" + name;
    std::FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f);
    std::fputs(json, f);
    std::fclose(f);
    return path;
  };
  std::string job = TestData("job/two_ranks");
  // peak_memory needs the trace's memory timeline, which a job does not keep.
  std::string memory = write("memory.json", R"J({"rules": [
    {"metric": "step_time", "max": 100},
    {"metric": "peak_memory", "max": 1e9}]})J");
  auto m = Run({"check", job, "--budget", memory});
  CHECK(m.code == 2);
  CHECK(m.err.find(memory + ": rules[1] (peak_memory): peak_memory needs a single trace, and "
                            "this is a job of 2 ranks") != std::string::npos);
  auto idle = Run({"check", job, "--budget", write("idle.json", R"J({"rules": [
    {"metric": "gpu_idle_share", "max": 0.5}]})J")});
  CHECK(idle.code == 2);
  CHECK(idle.err.find("rules[0] (gpu_idle_share): gpu_idle_share needs a single trace") !=
        std::string::npos);
  // A kernel share names its kernel and is not per step (kernel statistics are per job).
  auto no_op = Run({"check", job, "--budget", write("no-op.json", R"J({"rules": [
    {"metric": "kernel_share", "max": 0.5}]})J")});
  CHECK(no_op.code == 2);
  CHECK(no_op.err.find("rules[0]: metric kernel_share needs \"op\"") != std::string::npos);
  auto per_step = Run({"check", job, "--budget", write("per-step.json", R"J({"rules": [
    {"metric": "kernel_share", "op": "x", "per_step": true, "max": 0.5}]})J")});
  CHECK(per_step.code == 2);
  CHECK(per_step.err.find("metric kernel_share cannot be per_step") != std::string::npos);
  // A device the job's steps never ran on.
  auto device = Run({"check", job, "--budget", write("device.json", R"J({"rules": [
    {"metric": "idle_share", "device": "cuda:5", "max": 0.5}]})J")});
  CHECK(device.code == 2);
  CHECK(device.err.find("rules[0] (idle_share cuda:5): the job has no device activity in its "
                        "steps on device cuda:5") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("check --ranks: budgets and baselines on the selected ranks of a job", "[budget][job]") {
  // Ranks 0 and 7 of the DLRM job (`profana steps DIR`): walls 14455 and 12509 us (26964 in
  // all); exposed communication 5537 and 1580; idle 7865 and 9850.
  //   max_step_time: rank 0, 14455; rank_skew 14455 - 12509 = 1946.
  //   comm_exposed_share (5537 + 1580) / 26964 = 0.2639; per step, rank 0: 5537 / 14455 = 0.3831.
  //   idle_share (7865 + 9850) / 26964 = 0.6570; per step, rank 7: 9850 / 12509 = 0.7874.
  std::string dlrm = TestData("traces/param/dlrm_kineto");
  std::string dir = "/tmp/profana_job_ranks_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::string budget = dir + "/budget.json";
  {
    std::FILE* f = std::fopen(budget.c_str(), "w");
    REQUIRE(f);
    std::fputs(R"J({"rules": [
      {"metric": "max_step_time", "max": 15000},
      {"metric": "rank_skew", "max": 1900},
      {"metric": "comm_exposed_share", "max": 0.30},
      {"metric": "comm_exposed_share", "per_step": true, "max": 0.40},
      {"metric": "idle_share", "max": 0.70},
      {"metric": "idle_share", "per_step": true, "max": 0.80}
    ]})J",
               f);
    std::fclose(f);
  }
  simdjson::dom::parser parser;
  std::string text;
  simdjson::dom::array r = Rules(parser, &text, {dlrm, "--ranks", "0,7", "--budget", budget}, 1);
  REQUIRE(r.size() == 6);
  std::vector<double> values = {14455, 1946, 0.2639, 0.3831, 0.6570, 0.7874};
  size_t i = 0;
  for (simdjson::dom::element rule : r) {
    INFO("rule " << i);
    CHECK(bool(rule["passed"]) == (i != 1));  // only the skew, 1946 > 1900
    CHECK(double(rule["value"]) == Approx(values[i++]).epsilon(1e-3));
  }
  CHECK(std::string_view(r.at(0)["note"]) == "rank 0");
  CHECK(std::string_view(r.at(1)["note"]) == "rank 0 against rank 7");

  // One rank of the hand-made job (rank 1: walls 130 and 30, mean 80) is a job of one rank,
  // even though the input is a directory: no skew.
  simdjson::dom::array one = Rules(parser, &text,
                                   {TestData("job/two_ranks"), "--ranks", "1", "--budget",
                                    TestData("budgets/job-two-ranks-pass.json")},
                                   1);
  CHECK(double(one.at(0)["value"]) == 80);
  CHECK(double(one.at(2)["value"]) == 0);
  CHECK(std::string_view(one.at(2)["note"]) == "one rank");

  // A baseline job against itself, ranks 2-3 of each: no regression.
  auto same =
      Run({"check", dlrm, "--baseline", dlrm, "--ranks", "2-3", "--max-regression", "0%", "-q"});
  CHECK(same.code == 0);
  // --ranks that keep nothing, and --ranks on a plain validation, are usage errors.
  auto none = Run({"check", dlrm, "--ranks", "9", "--budget", budget});
  CHECK(none.code == 2);
  CHECK(none.err.find("--ranks keeps none of the 8 inputs (their ranks: 0-7)") !=
        std::string::npos);
  auto plain = Run({"check", TestData("job/two_ranks/rank0.json"), "--ranks", "0"});
  CHECK(plain.code == 2);
  CHECK(plain.err.find("--ranks: only with --budget or --baseline") != std::string::npos);
  std::filesystem::remove_all(dir);
}
