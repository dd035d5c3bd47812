// --step-marker: steps from a named range in traces recorded without a profiler schedule, and
// the hint that names one when a trace has no ProfilerStep#N.
#include "catch2/catch.hpp"
#include "test_util.h"

namespace profana {
namespace {

using test::Run;

// A live PyTorch 2.11 H100 session recorded without a schedule: no ProfilerStep#N, two Adam
// steps, each with its Optimizer.step#Adam.step and Optimizer.zero_grad#Adam.zero_grad ranges.
const std::string kNoSchedule = test::TestData("live/cnn_train/plain/trace.json.gz");

TEST_CASE("without ProfilerStep#N, steps and --steps name a repeated range to try", "[steps]") {
  test::CliRun steps = Run({"steps", kNoSchedule});
  REQUIRE(steps.code == 0);
  CHECK(steps.out.find("No ProfilerStep#N markers: no steps.") != std::string::npos);
  CHECK(steps.err.find("no ProfilerStep#N markers; \"Optimizer.zero_grad#Adam.zero_grad\" is "
                       "the most repeated top-level range (2 times): try --step-marker "
                       "'Optimizer\\.zero_grad#Adam\\.zero_grad'") != std::string::npos);
  test::CliRun filtered = Run({"table", kNoSchedule, "--steps", "1"});
  CHECK(filtered.code == 2);
  CHECK(filtered.err.find("--steps/--skip-first-step: no ProfilerStep#N markers; "
                          "\"Optimizer.zero_grad#Adam.zero_grad\"") != std::string::npos);
}

TEST_CASE("a step marker makes the matching ranges the steps, numbered from 0", "[steps]") {
  test::CliRun steps = Run({"steps", kNoSchedule, "--step-marker", "Optimizer\\.step"});
  REQUIRE(steps.code == 0);
  CHECK(steps.err.empty());
  CHECK(steps.out.find("Step time breakdown: 2 steps on 1 rank (0)") == 0);
  // Each step is its Optimizer.step range: its wall time is the range's duration.
  CHECK(steps.out.find("   0     0       0  556.567us") != std::string::npos);
  CHECK(steps.out.find("   0     1       0  687.952us") != std::string::npos);
  // --steps selects by that numbering; the table keeps the range's own name.
  test::CliRun table = Run({"table", kNoSchedule, "--step-marker", "Optimizer\\.step", "--steps",
                            "1", "--sort", "cpu_time_total", "-n", "1"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("Optimizer.step#Adam.step") != std::string::npos);
  CHECK(table.out.find("Self CPU time total: 687.952us") != std::string::npos);
  CHECK(table.out.find("ProfilerStep") == std::string::npos);
  // A marker that matches nothing, or a bad regex: said, exit 2.
  test::CliRun none = Run({"steps", kNoSchedule, "--step-marker", "train_step"});
  CHECK(none.code == 2);
  CHECK(none.err.find("--step-marker train_step: no op or annotation matches") !=
        std::string::npos);
  CHECK(Run({"steps", kNoSchedule, "--step-marker", "("}).code == 2);
}

TEST_CASE("a step marker replaces the ProfilerStep#N markers a trace has", "[steps]") {
  // PyTorch 1.13's mlp_train oracle: ProfilerStep#1 and #2, each holding an optimizer step.
  const std::string file = test::TestData("oracle/mlp_train/plain/trace.kineto_like.json");
  test::CliRun before = Run({"steps", file});
  REQUIRE(before.code == 0);
  CHECK(before.out.find("   0     1       -  408.000us") != std::string::npos);
  test::CliRun after = Run({"steps", file, "--step-marker", "Optimizer\\.step"});
  REQUIRE(after.code == 0);
  CHECK(after.out.find("Step time breakdown: 2 steps on 1 rank (0)") == 0);
  CHECK(after.out.find("   0     0       -  53.000us") != std::string::npos);
  CHECK(after.out.find("   0     1       -  41.000us") != std::string::npos);
  CHECK(after.out.find("408.000") == std::string::npos);
}

}  // namespace
}  // namespace profana
