// `profana diff` on jobs: a directory, a glob or a summary file on either side is the job's
// ranks combined (as `table DIR` shows them), compared per key; when the jobs ran different
// numbers of (rank, step) pairs, per rank and step. On the real 8-rank DLRM job
// (testdata/traces/param/dlrm_kineto, one ProfilerStep per rank).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <string>

#include "simdjson.h"
#include "test_util.h"

using profana::test::Run;
using profana::test::TestData;

namespace {

// The diff's JSON, parsed; fails the test when diff fails.
simdjson::dom::element Diff(simdjson::dom::parser& parser, std::string* text,
                            const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"diff"};
  argv.insert(argv.end(), args.begin(), args.end());
  for (const char* a : {"--format", "json", "--row-limit", "-1", "-q"}) argv.push_back(a);
  auto r = Run(argv);
  INFO(r.err);
  REQUIRE(r.code == 0);
  *text = r.out;
  return parser.parse(*text);
}

simdjson::dom::element DiffRow(simdjson::dom::element diff, std::string_view name) {
  for (simdjson::dom::element row : simdjson::dom::array(diff["rows"]))
    if (std::string_view(row["name"]) == name) return row;
  FAIL("no row " << name);
  return {};
}

}  // namespace

TEST_CASE("diff compares two jobs, ranks combined, per rank and step when they differ",
          "[job][diff]") {
  std::string dlrm = TestData("traces/param/dlrm_kineto");
  simdjson::dom::parser parser;
  std::string text;
  // The job with itself: every key in both, nothing changes.
  simdjson::dom::element same = Diff(parser, &text, {dlrm, dlrm});
  CHECK(int64_t(same["rows_total"]) == 257);
  CHECK(int64_t(same["added"]) == 0);
  CHECK(int64_t(same["removed"]) == 0);
  CHECK_FALSE(bool(same["per_step"]));
  CHECK(int64_t(same["totals"]["base"]["ranks"]) == 8);
  CHECK(int64_t(same["totals"]["base"]["steps"]) == 8);
  for (simdjson::dom::element row : simdjson::dom::array(same["rows"]))
    CHECK(double(row["change"]) == 0);

  // All 8 ranks against ranks 0-3 (a glob): 8 rank-steps against 4, so every value is divided
  // by its job's rank-steps. record_param_comms: `table DIR` gives 104 calls and 48,542 us of
  // self device time over the 8 ranks, `table` of ranks 0-3 52 calls and 30,400 us: per
  // rank-step 13 calls on both sides, 6,067.75 us against 7,600 us.
  simdjson::dom::parser parser2;
  std::string text2;
  simdjson::dom::element half = Diff(parser2, &text2, {dlrm, dlrm + "/worker[0-3]*"});
  CHECK(bool(half["per_step"]));
  CHECK(int64_t(half["totals"]["new"]["ranks"]) == 4);
  CHECK(int64_t(half["totals"]["new"]["steps"]) == 4);
  simdjson::dom::element comms = DiffRow(half, "record_param_comms");
  CHECK(double(comms["base"]["count"]) == 13);
  CHECK(double(comms["new"]["count"]) == 13);
  CHECK(double(comms["base"]["self_device_us"]) == 6067.75);
  CHECK(double(comms["new"]["self_device_us"]) == 7600);
  // Self device +1532.25, self CPU -12.5 (its nccl:* titles are async: their time is its own).
  CHECK(double(comms["change"]) == 1519.75);

  // --ranks picks ranks 0-3 of both jobs: the same four ranks on both sides, totals again.
  simdjson::dom::parser parser3;
  std::string text3;
  simdjson::dom::element picked = Diff(parser3, &text3, {dlrm, dlrm, "--ranks", "0-3"});
  CHECK_FALSE(bool(picked["per_step"]));
  CHECK(int64_t(picked["totals"]["base"]["ranks"]) == 4);
  CHECK(int64_t(picked["totals"]["new"]["ranks"]) == 4);
  CHECK(double(DiffRow(picked, "record_param_comms")["new"]["self_device_us"]) == 30400);
  CHECK(double(DiffRow(picked, "record_param_comms")["change"]) == 0);
}

TEST_CASE("diff reads summary files as the jobs they summarise", "[job][diff]") {
  // Each rank summarised on its own, the summaries merged: the merged summary against the traces
  // it came from changes nothing, with and without grouping by input shape.
  std::string dlrm = TestData("traces/param/dlrm_kineto");
  std::string dir = "/tmp/profana_job_diff_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::vector<std::string> merge = {"merge"};
  for (const auto& e : std::filesystem::directory_iterator(dlrm)) {
    std::string out = dir + "/" + e.path().filename().string() + ".pfs";
    REQUIRE(Run({"summarize", "-q", e.path().string(), "-o", out}).code == 0);
    merge.push_back(out);
  }
  merge.insert(merge.end(), {"-o", dir + "/job.pfs"});
  REQUIRE(Run(merge).code == 0);
  for (bool by_shape : {false, true}) {
    INFO("by input shape: " << by_shape);
    std::vector<std::string> args = {dir + "/job.pfs", dlrm};
    if (by_shape) args.push_back("--group-by-input-shape");
    simdjson::dom::parser parser;
    std::string text;
    simdjson::dom::element d = Diff(parser, &text, args);
    CHECK(int64_t(d["added"]) == 0);
    CHECK(int64_t(d["removed"]) == 0);
    // As many keys as `table DIR` has rows (with --group-by-input-shape: 816).
    CHECK(int64_t(d["rows_total"]) == (by_shape ? 816 : 257));
    CHECK(int64_t(d["totals"]["base"]["ranks"]) == 8);
    CHECK(double(d["totals"]["base"]["self_device_us"]) ==
          double(d["totals"]["new"]["self_device_us"]));
    for (simdjson::dom::element row : simdjson::dom::array(d["rows"])) {
      CHECK(double(row["change"]) == 0);
      CHECK(double(row["base"]["count"]) == double(row["new"]["count"]));
    }
  }
  // A summary keeps no stacks: grouping by stack says so.
  auto stacks = Run({"diff", dir + "/job.pfs", dlrm, "--group-by-stack", "2"});
  CHECK(stacks.code == 2);
  CHECK(stacks.err.find("a summary keeps no stacks") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("check --baseline takes jobs as diff does", "[job][diff][check]") {
  std::string dlrm = TestData("traces/param/dlrm_kineto");
  // The job against itself holds.
  auto same = Run({"check", dlrm, "--baseline", dlrm, "-q"});
  INFO(same.out << same.err);
  CHECK(same.code == 0);
  CHECK(same.out.find("3 rules (baseline " + dlrm + ", at most 5% slower), 0 failed") !=
        std::string::npos);
  // Ranks 0-3 against all 8, per rank and step (see the diff test): self device time 8,768.25
  // us per rank-step against 7,197 us (+21.8%) fails the 5% limit; self CPU (+2.4%) and the mean
  // step (16,671.5 against 16,007.75 us, +4.1%) hold.
  auto half = Run({"check", dlrm + "/worker[0-3]*", "--baseline", dlrm, "-q"});
  INFO(half.out << half.err);
  CHECK(half.code == 1);
  CHECK(half.out.find("FAIL  self_device_time per step vs baseline              8.768ms  <= "
                      "7.557ms") != std::string::npos);
  CHECK(half.out.find("ok    step_time vs baseline                             16.672ms  <= "
                      "16.808ms") != std::string::npos);
  CHECK(half.err.find("1 of 3 rules failed") != std::string::npos);
}

TEST_CASE("diff --by-rank matches the jobs' ranks", "[job][diff]") {
  // All 8 DLRM ranks against ranks 0-3: ranks 0-3 are the same traces on both sides (every key
  // in both, nothing changes); ranks 4-7 are in BASE only, so every key of theirs is removed.
  std::string dlrm = TestData("traces/param/dlrm_kineto");
  auto r = Run(
      {"diff", dlrm, dlrm + "/worker[0-3]*", "--by-rank", "--format", "json", "-n", "-1", "-q"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::array ranks = parser.parse(r.out);
  REQUIRE(ranks.size() == 8);
  for (size_t i = 0; i < 8; ++i) {
    simdjson::dom::element d = ranks.at(i);
    INFO("rank " << i);
    CHECK(int64_t(d["rank"]) == int64_t(i));
    int64_t total = int64_t(d["rows_total"]);
    CHECK(total >= 252);
    CHECK(int64_t(d["added"]) == 0);
    CHECK(int64_t(d["removed"]) == (i < 4 ? 0 : total));
    if (i < 4)
      for (simdjson::dom::element row : simdjson::dom::array(d["rows"]))
        CHECK(double(row["change"]) == 0);
  }
  // Each block has as many keys as that rank's own table: 252 for rank 0, 257 for rank 3.
  CHECK(int64_t(ranks.at(0)["rows_total"]) == 252);
  CHECK(int64_t(ranks.at(3)["rows_total"]) == 257);
  // CSV: one header, a rank column.
  auto csv =
      Run({"diff", dlrm, dlrm + "/worker[0-3]*", "--by-rank", "--format", "csv", "-n", "1", "-q"});
  CHECK(csv.out.rfind("rank,name,", 0) == 0);
  CHECK(csv.out.find("\nrank,") == std::string::npos);
  CHECK(csv.out.find("\n7,") != std::string::npos);
}
