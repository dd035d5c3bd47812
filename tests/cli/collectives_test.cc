// profana collectives: skew, transfer, waits and stragglers on hand-made ranks (worked out below),
// Kineto's collective args, the 8-rank DLRM job, a job with no collectives, summaries, and ranks
// one database timed.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "profana/job/collective_analysis.h"
#include "profana/job/collective_calls.h"
#include "simdjson.h"
#include "test_util.h"

using namespace profana;
using profana::test::CliRun;
using profana::test::Run;
using profana::test::TestData;

TEST_CASE("collectives on three hand-made ranks: skew, transfer, waits, stragglers, offsets",
          "[collectives]") {
  // testdata/job/collectives_three_ranks (README.md there): true times, in us,
  //   allreduce #0: rank 0 [100,150), rank 1 [120,150), rank 2 [110,150)
  //   sendrecv  #0: rank 0 [300,340), rank 1 [310,340), rank 2 [325,341)
  //   allreduce #1: rank 0 [500,560), rank 1 [505,560), rank 2 [540,560)
  //   broadcast on rank 0 only [700,710): unmatched.
  // Rank 1's clock reads true + 1000, rank 2's true - 50. Offsets (rank 0's end minus the
  // rank's): rank 1 -1000 three times; rank 2 50, 49, 50: median 50.
  // allreduce #0: skew 20 (rank 1 last), transfer 30, waits 20, 0, 10 = 30.
  // sendrecv #0: skew 25 (rank 2), transfer 16, waits 24, 14, 0 = 38.
  // allreduce #1: skew 40 (rank 2), transfer 20, waits 40, 35, 0 = 75.
  // Caused: rank 1 30; rank 2 38 + 75 = 113. Suffered: rank 0 84, rank 1 49, rank 2 10.
  // Steps: rank 0 [50,800) 750 us, rank 1 600, rank 2 560.
  auto r = Run({"collectives", TestData("job/collectives_three_ranks"), "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element j = parser.parse(r.out);
  CHECK(std::string_view(j["schema"]) == "profana.collectives/1");
  CHECK(int64_t(j["communication_kernels"]) == 10);
  CHECK(int64_t(j["matched"]) == 3);
  CHECK(int64_t(j["unmatched_kernels"]) == 1);
  CHECK(int64_t(j["reference_rank"]) == 0);
  simdjson::dom::array cs = j["collectives"];
  REQUIRE(cs.size() == 3);
  // Most wait first.
  simdjson::dom::element ar1 = cs.at(0);
  CHECK(std::string_view(ar1["collective"]) == "allreduce");
  CHECK(int64_t(ar1["index"]) == 1);
  CHECK(double(ar1["skew"]) == 40);
  CHECK(double(ar1["transfer"]) == 20);
  CHECK(double(ar1["wait"]) == 75);
  CHECK(int64_t(ar1["last_rank"]) == 2);
  CHECK(ar1["bytes"].is_null());
  CHECK(ar1["algbw_gbps"].is_null());
  CHECK(double(ar1["per_rank"].at(1)["start"]) == 505);  // rank 1's 1505, aligned
  CHECK(double(ar1["per_rank"].at(2)["start"]) == 540);  // rank 2's 490, aligned
  simdjson::dom::element sr = cs.at(1);
  CHECK(std::string_view(sr["collective"]) == "sendrecv");
  CHECK(double(sr["skew"]) == 25);
  CHECK(double(sr["transfer"]) == 16);
  CHECK(double(sr["wait"]) == 38);
  simdjson::dom::element ar0 = cs.at(2);
  CHECK(double(ar0["skew"]) == 20);
  CHECK(double(ar0["transfer"]) == 30);
  CHECK(double(ar0["wait"]) == 30);
  CHECK(int64_t(ar0["last_rank"]) == 1);
  simdjson::dom::array st = j["stragglers"];
  REQUIRE(st.size() == 3);
  CHECK(double(st.at(0)["clock_offset"]) == 0);
  CHECK(double(st.at(1)["clock_offset"]) == -1000);
  CHECK(double(st.at(2)["clock_offset"]) == 50);
  CHECK(double(st.at(0)["wait_suffered"]) == 84);
  CHECK(double(st.at(1)["wait_caused"]) == 30);
  CHECK(double(st.at(1)["wait_suffered"]) == 49);
  CHECK(int64_t(st.at(2)["arrived_last"]) == 2);
  CHECK(double(st.at(2)["wait_caused"]) == 113);
  CHECK(double(st.at(2)["wait_suffered"]) == 10);
  CHECK(double(st.at(0)["mean_step"]) == 750);
  CHECK(double(st.at(1)["mean_step"]) == 600);
  CHECK(double(st.at(2)["mean_step"]) == 560);

  // --no-align: rank 1's clock is 1000 us ahead, so it starts last everywhere and the skews
  // are about 1000 us.
  auto raw = Run(
      {"collectives", TestData("job/collectives_three_ranks"), "--no-align", "--format", "json"});
  REQUIRE(raw.code == 0);
  simdjson::dom::element k = parser.parse(raw.out);
  CHECK(k["reference_rank"].is_null());
  CHECK(k["stragglers"].at(1)["clock_offset"].is_null());
  CHECK(int64_t(k["stragglers"].at(1)["arrived_last"]) == 3);
  // Waits do not depend on the clocks (durations only).
  CHECK(double(k["collectives"].at(0)["wait"]) == 75);

  // --row-limit 1 keeps the collective with the most wait; CSV has one row.
  auto csv = Run({"collectives", TestData("job/collectives_three_ranks"), "--row-limit", "1",
                  "--format", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(csv.out ==
        "collective,group,index,ranks,last_rank,skew_us,transfer_us,wait_us,max_wait_us,bytes,"
        "algbw_gbps,busbw_gbps\n"
        "allreduce,,1,3,2,40.000,20.000,75.000,40.000,,,\n");

  // --table stragglers: the straggler table as CSV, one row per rank (the values above; caused
  // and suffered waits, mean steps 750, 600, 560, offsets 0, -1000, 50). --row-limit limits the
  // collectives, never the ranks.
  auto st_csv = Run({"collectives", TestData("job/collectives_three_ranks"), "--row-limit", "1",
                     "--format", "csv", "--table", "stragglers"});
  REQUIRE(st_csv.code == 0);
  CHECK(st_csv.out ==
        "rank,collectives,arrived_last,caused_wait_us,suffered_wait_us,mean_step_us,"
        "clock_offset_us\n"
        "0,3,0,0.000,84.000,750.000,0.000\n"
        "1,3,1,30.000,49.000,600.000,-1000.000\n"
        "2,3,2,113.000,10.000,560.000,50.000\n");
  // --no-align: no offset was applied, so the offset cells are empty; rank 1 arrives last at
  // all three and its 1000 us lead shows as waits it caused.
  auto raw_csv = Run({"collectives", TestData("job/collectives_three_ranks"), "--no-align",
                      "--format", "csv", "--table", "stragglers"});
  REQUIRE(raw_csv.code == 0);
  CHECK(raw_csv.out.find("\n1,3,3,") != std::string::npos);
  CHECK(raw_csv.out.find(",600.000,\n") != std::string::npos);
  // --table asks for a CSV: the other formats hold both tables.
  auto text =
      Run({"collectives", TestData("job/collectives_three_ranks"), "--table", "stragglers"});
  CHECK(text.code == 2);
  CHECK(text.err.find("--table: only with --format csv") != std::string::npos);
  CHECK(Run({"collectives", TestData("job/collectives_three_ranks"), "--format", "csv", "--table",
             "ranks"})
            .code == 2);
}

TEST_CASE("Kineto's collective args: process groups, message sizes and bandwidth",
          "[collectives]") {
  // testdata/job/collectives_groups (README.md there): true times, in us,
  //   group "0" #0 allreduce of 1,000,000 Float (4e6 B): rank 0 [100,200), rank 1 [150,200)
  //   group "0" #1 _allgather_base 500,000 -> 1,000,000 Float (4e6 B): [400,450), [420,450)
  //   group "1" #0 allreduce of 250,000 BFloat16 (5e5 B): [300,340), [120,340)
  // Rank 1's clock reads true + 20 (offset -20), and it starts group "1" first: by kind and order
  // alone its first all-reduce would pair with rank 0's group "0" one.
  // group 1 #0: skew 180 (rank 0 last), transfer 40, waits 0 + 180; algbw 5e5 B / 40 us =
  //   12.5 GB/s, busbw 12.5 x 2(2-1)/2 = 12.5.
  // group 0 #0: skew 50 (rank 1), transfer 50, waits 50 + 0; algbw 4e6 / 50 us = 80, busbw 80.
  // group 0 #1: skew 20 (rank 1), transfer 30, waits 20 + 0; algbw 133.333, busbw x 1/2 =
  //   66.667.
  auto r = Run({"collectives", TestData("job/collectives_groups"), "--format", "json"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element j = parser.parse(r.out);
  CHECK(int64_t(j["matched"]) == 3);
  CHECK(int64_t(j["unmatched_kernels"]) == 0);
  simdjson::dom::array cs = j["collectives"];
  REQUIRE(cs.size() == 3);
  simdjson::dom::element g1 = cs.at(0);
  CHECK(std::string_view(g1["group"]) == "1");
  CHECK(std::string_view(g1["kind"]) == "allreduce");
  CHECK(int64_t(g1["index"]) == 0);
  CHECK(double(g1["skew"]) == 180);
  CHECK(double(g1["transfer"]) == 40);
  CHECK(double(g1["wait"]) == 180);
  CHECK(int64_t(g1["last_rank"]) == 0);
  CHECK(int64_t(g1["bytes"]) == 500000);
  CHECK(int64_t(g1["group_size"]) == 2);
  CHECK(double(g1["algbw_gbps"]) == Approx(12.5));
  CHECK(double(g1["busbw_gbps"]) == Approx(12.5));
  simdjson::dom::element g00 = cs.at(1);
  CHECK(std::string_view(g00["group"]) == "0");
  CHECK(int64_t(g00["index"]) == 0);
  CHECK(double(g00["skew"]) == 50);
  CHECK(double(g00["transfer"]) == 50);
  CHECK(int64_t(g00["bytes"]) == 4000000);
  CHECK(double(g00["algbw_gbps"]) == Approx(80));
  CHECK(double(g00["busbw_gbps"]) == Approx(80));
  simdjson::dom::element g01 = cs.at(2);
  CHECK(std::string_view(g01["kind"]) == "allgather");
  CHECK(int64_t(g01["index"]) == 1);
  CHECK(double(g01["skew"]) == 20);
  CHECK(double(g01["transfer"]) == 30);
  CHECK(double(g01["algbw_gbps"]) == Approx(4e6 / 30e3));
  CHECK(double(g01["busbw_gbps"]) == Approx(4e6 / 30e3 / 2));
  simdjson::dom::array st = j["stragglers"];
  CHECK(double(st.at(1)["clock_offset"]) == -20);
  CHECK(double(st.at(0)["wait_caused"]) == 180);
  CHECK(double(st.at(0)["wait_suffered"]) == 70);
  CHECK(double(st.at(1)["wait_caused"]) == 70);
  CHECK(double(st.at(1)["wait_suffered"]) == 180);
  CHECK(st.at(0)["mean_step"].is_null());  // no ProfilerStep markers

  // The args survive profana's own file and the Chrome trace it writes back.
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("profana-collectives-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "pfa");
  fs::create_directories(dir / "json");
  for (const char* rank : {"rank0", "rank1"}) {
    std::string in = TestData(std::string("job/collectives_groups/") + rank + ".json");
    REQUIRE(
        Run({"convert", in, "-o", (dir / "pfa" / (std::string(rank) + ".pfa")).string()}).code ==
        0);
    REQUIRE(
        Run({"convert", in, "-o", (dir / "json" / (std::string(rank) + ".json")).string()}).code ==
        0);
  }
  auto text = Run({"collectives", TestData("job/collectives_groups")});
  CHECK(Run({"collectives", (dir / "pfa").string()}).out == text.out);
  CHECK(Run({"collectives", (dir / "json").string()}).out == text.out);
  fs::remove_all(dir);
}

TEST_CASE("collectives on the 8-rank DLRM job: rank 7 makes the others wait", "[collectives]") {
  // All eight ranks ran on one host: the offsets come out at 0 or 1 us. Eight collectives (3
  // all-reduces, 5 all_to_all as SendRecv kernels); the first all_to_all waits 7625 us for
  // rank 7, which arrives last in 5 of the 8.
  auto r = Run({"collectives", TestData("traces/param/dlrm_kineto"), "--format", "json", "-q"});
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element j = parser.parse(r.out);
  CHECK(int64_t(j["matched"]) == 8);
  CHECK(int64_t(j["unmatched_kernels"]) == 0);
  simdjson::dom::element top = j["collectives"].at(0);
  CHECK(std::string_view(top["collective"]) == "sendrecv");
  CHECK(int64_t(top["last_rank"]) == 7);
  CHECK(double(top["skew"]) == 7625);
  CHECK(double(top["transfer"]) == 10);
  CHECK(double(top["wait"]) == 26436);
  simdjson::dom::element r7 = j["stragglers"].at(7);
  CHECK(int64_t(r7["arrived_last"]) == 5);
  CHECK(double(r7["wait_caused"]) == 35543);
  CHECK(double(r7["wait_suffered"]) == 1529);
  for (simdjson::dom::element s : j["stragglers"].get_array()) {
    double offset = s["clock_offset"];
    CHECK(offset >= 0);
    CHECK(offset <= 1);
  }
}

TEST_CASE("a job without communication kernels says so", "[collectives]") {
  auto r = Run({"collectives", TestData("job/no_collectives")});
  CHECK(r.code == 0);
  CHECK(r.out ==
        "Collectives: 0 matched on 2 ranks (0,1)\n\n"
        "No communication kernels (NCCL or RCCL) or gloo collectives in any rank: no "
        "collectives.\n");
  auto one = Run({"collectives", TestData("job/collectives_three_ranks"), "--ranks", "1"});
  CHECK(one.code == 0);
  CHECK(one.out.find("One rank: a collective is matched across two or more ranks") !=
        std::string::npos);
  auto bad = Run({"collectives", TestData("job/collectives_three_ranks"), "--row-limit", "-2"});
  CHECK(bad.code == 2);
}

namespace {

// A collectives JSON document without its "inputs" array, which echoes the command line.
std::string WithoutInputs(std::string json) {
  size_t from = json.find("\"inputs\": [");
  REQUIRE(from != std::string::npos);
  size_t to = json.find(']', from);
  return json.erase(from, to + 1 - from);
}

}  // namespace

TEST_CASE("collectives reads summaries, merged or not, and prints what the traces print",
          "[collectives][summary]") {
  // Each DLRM rank summarised on its own; ranks 0-3 merged into low.pfs and all eight into
  // job.pfs. The summaries alone, the merged job, and low.pfs beside the traces of ranks 4-7
  // print the traces' report in every format, aligned or not (JSON: but for "inputs").
  namespace fs = std::filesystem;
  std::string dlrm = TestData("traces/param/dlrm_kineto");
  fs::path dir = fs::temp_directory_path() / ("profana-summary-coll-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "ranks");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dlrm)) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() == 8);
  std::vector<std::string> merge_all = {"merge"}, merge_low = {"merge"}, mix = {"collectives"};
  for (size_t r = 0; r < files.size(); ++r) {
    std::string out = (dir / "ranks" / ("rank" + std::to_string(r) + ".pfs")).string();
    REQUIRE(Run({"summarize", "-q", files[r], "-o", out}).code == 0);
    merge_all.push_back(out);
    if (r < 4)
      merge_low.push_back(out);
    else
      mix.push_back(files[r]);
  }
  merge_all.insert(merge_all.end(), {"-o", (dir / "job.pfs").string()});
  merge_low.insert(merge_low.end(), {"-o", (dir / "low.pfs").string()});
  REQUIRE(Run(merge_all).code == 0);
  REQUIRE(Run(merge_low).code == 0);
  mix.push_back((dir / "low.pfs").string());
  for (std::string format : {"text", "json", "csv", "markdown"})
    for (bool align : {true, false}) {
      INFO(format << (align ? "" : " --no-align"));
      std::vector<std::string> options = {"--format", format, "--row-limit", "-1", "-q"};
      if (!align) options.push_back("--no-align");
      auto run = [&](std::vector<std::string> args) {
        args.insert(args.end(), options.begin(), options.end());
        CliRun r = Run(args);
        CHECK(r.code == 0);
        return format == "json" ? WithoutInputs(r.out) : r.out;
      };
      std::string direct = run({"collectives", dlrm});
      CHECK(run({"collectives", (dir / "job.pfs").string()}) == direct);
      CHECK(run({"collectives", (dir / "ranks").string()}) == direct);
      CHECK(run(mix) == direct);
    }
  // The numbers themselves, from the merged summary: rank 7 arrives last at the first all_to_all,
  // 7625 us after the first rank; the clocks agree to 1 us.
  auto text = Run({"collectives", (dir / "job.pfs").string()});
  CHECK(text.out.find("Collectives: 8 matched on 8 ranks (0-7)") == 0);
  CHECK(text.out.find("sendrecv    -          0      8     7    7.625ms  10.000us   26.436ms    "
                      "7.625ms") != std::string::npos);
  CHECK(
      text.out.find("   7            8             5     35.543ms        1.529ms   12.509ms       "
                    "1.000us") != std::string::npos);

  // Named process groups, message sizes and a 20 us clock offset survive a summary too.
  std::string groups = TestData("job/collectives_groups");
  REQUIRE(Run({"summarize", "-q", groups, "-o", (dir / "groups.pfs").string()}).code == 0);
  auto from_summary = Run({"collectives", (dir / "groups.pfs").string(), "--format", "json"});
  REQUIRE(from_summary.code == 0);
  CHECK(WithoutInputs(from_summary.out) ==
        WithoutInputs(Run({"collectives", groups, "--format", "json"}).out));
  CHECK(from_summary.out.find("\"clock_offset\": -20") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("collectives refuses a summary without the collective ledger, naming it",
          "[collectives][summary]") {
  // A summary as written before the ledger: the same file without its "collectives" section.
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("profana-old-summary-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string groups = TestData("job/collectives_groups");
  auto summary = Run({"summarize", "-q", groups});
  REQUIRE(summary.code == 0);
  std::string text = summary.out;
  size_t from = text.find(",\n\"collectives\"");
  size_t to = text.find(",\n\"stacks\"");
  REQUIRE(from != std::string::npos);
  std::string old = (dir / "old.pfs").string();
  std::ofstream(old) << text.substr(0, from) + text.substr(to);
  auto r = Run({"collectives", old});
  CHECK(r.code == 2);
  CHECK(r.err.find(old + ": this summary holds no collective ledger") != std::string::npos);
  // The other sections still serve: steps reads it.
  CHECK(Run({"steps", old, "-q"}).code == 0);
  fs::remove_all(dir);
}

TEST_CASE("ranks one database timed keep its clock: one offset per clock", "[collectives]") {
  using job::CollectiveKind;
  // Ranks 0 and 1 are two processes of one Nsight Systems export (one host clock); rank 1 really
  // arrives 30 us late and ends 10 us after rank 0 (its last kernel runs longer). Rank 2, a trace
  // of its own, runs 500 us behind. Measured, rank 1 would get -10 us: alignment would take its
  // late ends for clock skew.
  std::vector<job::RankCalls> ranks(3);
  ranks[0].rank = 0;
  ranks[0].clock = "nsys-sqlite:abc";
  ranks[0].calls = {test::CollectiveCallOf(CollectiveKind::kAllReduce, 100, 300),
                    test::CollectiveCallOf(CollectiveKind::kAllReduce, 400, 500)};
  ranks[1].rank = 1;
  ranks[1].clock = "nsys-sqlite:abc";
  ranks[1].calls = {test::CollectiveCallOf(CollectiveKind::kAllReduce, 130, 310),
                    test::CollectiveCallOf(CollectiveKind::kAllReduce, 420, 510)};
  ranks[2].rank = 2;
  ranks[2].calls = {test::CollectiveCallOf(CollectiveKind::kAllReduce, 100 - 500, 300 - 500),
                    test::CollectiveCallOf(CollectiveKind::kAllReduce, 400 - 500, 500 - 500)};
  job::CollectivesResult r = job::AnalyzeCollectives(ranks, true);
  CHECK(r.ranks[1].offset_ns == 0);
  CHECK(r.ranks[1].clock_of == 0);
  CHECK(r.ranks[2].offset_ns == 500000);
  CHECK(r.ranks[2].clock_of == -1);
  REQUIRE(r.collectives.size() == 2);
  CHECK(r.collectives[0].skew_ns == 30000);
  CHECK(r.collectives[0].last_rank == 1);

  // The real two-GPU export: both processes share nsys's clock, so rank 1 keeps offset 0.
  auto run = Run({"collectives", TestData("traces/nsys/nsys-ai/mfu_2gpu_before.sqlite.gz"),
                  "--format", "json"});
  REQUIRE(run.code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(run.out);
  simdjson::dom::array stragglers = doc["stragglers"];
  REQUIRE(stragglers.size() == 2);
  CHECK(double(stragglers.at(1)["clock_offset"]) == 0);
  CHECK(int64_t(stragglers.at(1)["clock_of"]) == 0);
}
