// Whole-job building blocks: rank detection, --ranks, the inputs of a directory, the step
// breakdown's interval arithmetic on a hand-made trace (worked out below), duration statistics
// that merge in any order, kernel names for text, and the worker pool.
#include <sys/resource.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <thread>
#include <vector>

#include "fmt/format.h"
#include "profana/base/worker_pool.h"
#include "profana/importers/importer.h"
#include "profana/job/duration_stats.h"
#include "profana/job/intervals.h"
#include "profana/job/job_inputs.h"
#include "profana/job/kernel_stats.h"
#include "profana/job/rank_summary.h"
#include "profana/job/step_breakdown.h"
#include "simdjson.h"
#include "test_util.h"

using namespace profana;
using profana::test::TestData;

TEST_CASE("a rank comes from the file name: rank, worker, or _N. before an extension", "[job]") {
  CHECK(job::RankFromFileName("trace_rank3.json") == 3);
  CHECK(job::RankFromFileName("dir/rank-12.pt.trace.json.gz") == 12);
  CHECK(job::RankFromFileName("Rank_7.json") == 7);
  CHECK(job::RankFromFileName("worker0_step_12.1694128201545.pt.trace.json.gz") == 0);
  CHECK(job::RankFromFileName("host_worker-5.json") == 5);
  CHECK(job::RankFromFileName("trace_3.json") == 3);
  CHECK(job::RankFromFileName("a_1_b_2.json") == 2);  // the last number before a dot
  // No rank word at a word start, no number before a dot: no rank.
  CHECK_FALSE(job::RankFromFileName("myrank3x.json").has_value());
  CHECK_FALSE(job::RankFromFileName("trace.json").has_value());
  CHECK_FALSE(job::RankFromFileName("rank.json").has_value());
  // A directory's digits are not the file's.
  CHECK_FALSE(job::RankFromFileName("rank9/trace.json").has_value());
}

TEST_CASE("a --ranks list takes single ranks and inclusive ranges", "[job]") {
  auto sel = job::RankSelection::Parse("0-3,7");
  REQUIRE(sel.ok());
  for (int64_t r : {0, 1, 2, 3, 7}) CHECK(sel->Contains(r));
  for (int64_t r : {4, 5, 6, 8}) CHECK_FALSE(sel->Contains(r));
  CHECK(job::RankSelection::Parse("5")->Contains(5));
  CHECK(job::RankSelection::Parse("3-3")->Contains(3));
  for (const char* bad : {"", "1,", "a", "3-1", "1-", "-2", "1-2-3", "1;2"}) {
    auto r = job::RankSelection::Parse(bad);
    CHECK_FALSE(r.ok());
  }
  CHECK(job::RankSelection::Parse("3-1").status().message().find("ends before it starts") !=
        std::string::npos);
  CHECK(job::FormatRankList({0, 1, 2, 3, 5, 7, 8}) == "0-3,5,7,8");
  CHECK(job::FormatRankList({4}) == "4");
}

TEST_CASE("a directory expands to the traces inside it, sorted, with their ranks", "[job]") {
  auto inputs = job::ExpandInputs({TestData("job/two_ranks")});
  REQUIRE(inputs.ok());
  REQUIRE(inputs->size() == 2);  // README.md is not a trace
  CHECK((*inputs)[0].path.find("rank0.json") != std::string::npos);
  CHECK((*inputs)[0].header_rank == 0);  // distributedInfo in the header
  CHECK((*inputs)[1].path.find("worker1.json") != std::string::npos);
  CHECK_FALSE((*inputs)[1].header_rank.has_value());  // no distributedInfo
  CHECK((*inputs)[1].name_rank == 1);
  CHECK(job::ResolveRank((*inputs)[1], -1) == 1);
  CHECK(job::ResolveRank((*inputs)[1], 4) == 4);  // the loaded trace's own rank wins

  auto dlrm = job::ExpandInputs({TestData("traces/param/dlrm_kineto")});
  REQUIRE(dlrm.ok());
  REQUIRE(dlrm->size() == 8);
  for (size_t i = 0; i < 8; ++i) CHECK((*dlrm)[i].header_rank == static_cast<int64_t>(i));

  CHECK_FALSE(job::ExpandInputs({TestData("job/no_such_*.json")}).ok());
  auto single = job::SingleTraceInput({TestData("job/two_ranks/rank0.json")});
  REQUIRE(single);
  CHECK(single->file);  // opened to tell, and held for the load
  CHECK_FALSE(job::SingleTraceInput({TestData("job/two_ranks")}));
  CHECK_FALSE(job::SingleTraceInput({TestData("job/two_ranks/*.json")}));
}

TEST_CASE("a summary file named alone is opened once, for the sniff and the job", "[job]") {
  std::string path = profana::test::TempPath("sniffed_summary.json");
  profana::test::WriteFile(path, "{\"schema\": \"profana.summary/1\"}");
  job::SniffedInputs sniffed = job::SniffInputs({path});
  CHECK_FALSE(sniffed.single);  // a summary is a job
  REQUIRE(sniffed.summary);
  std::shared_ptr<InputFile> opened = sniffed.opened();
  CHECK(opened == sniffed.summary);
  auto inputs = job::ExpandInputs({path}, std::move(sniffed.summary));
  REQUIRE(inputs.ok());
  REQUIRE(inputs->size() == 1);
  CHECK((*inputs)[0].file == opened);  // the sniff's descriptor, not a second open
  CHECK((*inputs)[0].path == path);

  job::SniffedInputs trace = job::SniffInputs({TestData("job/two_ranks/rank0.json")});
  REQUIRE(trace.single);
  CHECK_FALSE(trace.summary);
  CHECK(trace.opened() == trace.single->file);
  CHECK_FALSE(job::SniffInputs({TestData("job/two_ranks")}).opened());  // a directory: a job
}

TEST_CASE("a directory of more traces than descriptors expands whole", "[job]") {
  // The expansion holds files open for their load, but never past the process's limit: with a
  // soft limit of 200 descriptors, all 300 traces of a directory are listed, and some held.
  std::string dir = profana::test::TempPath("many_ranks");
  std::filesystem::create_directories(dir);
  std::string trace = profana::test::ReadFile(TestData("job/two_ranks/rank0.json"));
  for (int i = 0; i < 300; ++i)
    profana::test::WriteFile(fmt::format("{}/rank{:03}.json", dir, i), trace);
  struct rlimit was;
  REQUIRE(getrlimit(RLIMIT_NOFILE, &was) == 0);
  struct rlimit tight = was;
  tight.rlim_cur = 200;
  REQUIRE(setrlimit(RLIMIT_NOFILE, &tight) == 0);
  auto inputs = job::ExpandInputs({dir});
  setrlimit(RLIMIT_NOFILE, &was);
  REQUIRE(inputs.ok());
  REQUIRE(inputs->size() == 300);
  size_t held = 0;
  for (const job::JobInput& in : *inputs) held += in.file != nullptr;
  CHECK(held == (200 - 128) / 2);
  CHECK(inputs->back().name_rank == 299);
  std::filesystem::remove_all(dir);
}

TEST_CASE("interval unions and their measure in a window", "[job]") {
  std::vector<job::Interval> u = {{50, 60}, {0, 10}, {5, 20}, {30, 30}, {60, 70}};
  job::MakeUnion(&u);
  REQUIRE(u == std::vector<job::Interval>{{0, 20}, {50, 70}});
  CHECK(job::Measure(u, 0, 100) == 40);
  CHECK(job::Measure(u, 10, 55) == 15);  // [10,20) and [50,55)
  CHECK(job::Measure(u, 20, 50) == 0);
  CHECK(job::Measure(u, 60, 60) == 0);
}

TEST_CASE("the step breakdown of a hand-made rank, worked out by hand", "[job]") {
  // testdata/job/two_ranks/rank0.json, times in us (see README.md there):
  // step 1 [100,200): gemm [120,180) computation, NCCL [150,200) communication, a memcpy
  // [190,210) launched at 160 (inside step 1), so the window is [100,210), 110 us:
  //   computation 60; communication 50, of which [180,200) outside computation: exposed 20,
  //   hidden 30 (60%); all busy [120,210) = 90, so exposed memcpy 90 - 80 = 10; idle 20.
  //   Host [100,200): ops and calls cover [110,130) [140,150) [160,164) [170,190) = 54 us, so 46
  //   untraced; cudaStreamSynchronize 20.
  // step 2 [200,250): the window starts where step 1's ended, 210, and ends at 250: 40 us;
  //   gemm [215,240) 25 computation, idle 15, no communication. Host: aten::mm 10, untraced 40.
  auto trace = LoadTrace(TestData("job/two_ranks/rank0.json"));
  REQUIRE(trace.ok());
  std::vector<job::StepRow> steps = job::ComputeStepBreakdown(trace->trace);
  REQUIRE(steps.size() == 2);
  const job::StepRow& s1 = steps[0];
  CHECK(s1.step == 1);
  CHECK(s1.wall_ns == 110000);
  CHECK(s1.host_ns == 100000);
  CHECK(s1.host_untraced_ns == 46000);
  CHECK(s1.host_sync_ns == 20000);
  CHECK(s1.host_dataloader_ns == 0);
  REQUIRE(s1.devices.size() == 1);
  CHECK(s1.devices[0].device == 0);
  CHECK(s1.devices[0].compute_ns == 60000);
  CHECK(s1.devices[0].comm_exposed_ns == 20000);
  CHECK(s1.devices[0].memory_exposed_ns == 10000);
  CHECK(s1.devices[0].idle_ns == 20000);
  CHECK(s1.devices[0].comm_ns == 50000);
  CHECK(s1.devices[0].comm_hidden_ns == 30000);
  const job::StepRow& s2 = steps[1];
  CHECK(s2.step == 2);
  CHECK(s2.start_ns - s1.start_ns == 110000);
  CHECK(s2.wall_ns == 40000);
  CHECK(s2.host_untraced_ns == 40000);
  CHECK(s2.devices[0].compute_ns == 25000);
  CHECK(s2.devices[0].idle_ns == 15000);
  CHECK(s2.devices[0].comm_ns == 0);
  CHECK(s2.devices[0].memory_exposed_ns == 0);  // the memcpy ended at 210, before the window
}

TEST_CASE("duration statistics merge to the same result in any order", "[job]") {
  job::DurationStats a, b, c;
  for (int64_t v : {60000, 25000}) a.Add(v);
  for (int64_t v : {30000, 20000}) b.Add(v);
  c.Add(1000);
  job::DurationStats ab_c = a, c_ba = c, b_a = b;
  ab_c.Merge(b);
  ab_c.Merge(c);
  b_a.Merge(a);
  c_ba.Merge(b_a);
  for (const job::DurationStats* s : {&ab_c, &c_ba}) {
    CHECK(s->count() == 5);
    CHECK(s->sum() == 136000);
    CHECK(s->min() == 1000);
    CHECK(s->max() == 60000);
    CHECK(s->Quantile(0.5) == 25000);
  }
  CHECK(ab_c.stddev() == c_ba.stddev());
  // {20, 25, 30, 60} us: median 27.5, sample std dev sqrt(968.75 / 3) = 17.970 us.
  b_a.Quantile(0.5);
  CHECK(b_a.Quantile(0.5) == Approx(27500));
  CHECK(b_a.stddev() == Approx(std::sqrt(968.75e6 / 3)));
  // Past the exact limit the sketch answers within 1%, and still merges in any order.
  job::DurationStats big1, big2;
  for (int64_t i = 1; i <= 6000; ++i) (i % 2 ? big1 : big2).Add(i * 1000);
  job::DurationStats m12 = big1, m21 = big2;
  m12.Merge(big2);
  m21.Merge(big1);
  CHECK_FALSE(m12.exact());
  CHECK(m12.Quantile(0.5) == m21.Quantile(0.5));
  CHECK(m12.Quantile(0.5) == Approx(3000500).epsilon(0.01));
}

TEST_CASE("duration statistics added all at once equal those added one by one", "[job]") {
  // Below the exact limit, and past it (the sketch), with repeated values, in a scrambled order.
  for (int64_t distinct : {100, 5000}) {
    CAPTURE(distinct);
    std::vector<int64_t> values;
    for (int64_t i = 0; i < 3 * distinct; ++i) values.push_back((i * 7919) % distinct * 1000 + 3);
    values.push_back(0);  // a clipped event's duration
    job::DurationStats one_by_one, all;
    for (int64_t v : values) REQUIRE(one_by_one.Add(v));
    std::vector<int64_t> copy = values;
    REQUIRE(all.AddAll(&copy));
    CHECK(all.exact() == (distinct <= 4096));
    CHECK(all.count() == one_by_one.count());
    CHECK(all.sum() == one_by_one.sum());
    CHECK(all.sum_squares() == one_by_one.sum_squares());
    CHECK(all.min() == 0);
    CHECK(all.max() == one_by_one.max());
    CHECK(all.exact_values() == one_by_one.exact_values());
    CHECK(all.sketch_buckets() == one_by_one.sketch_buckets());
    CHECK(all.Quantile(0.9) == one_by_one.Quantile(0.9));
  }
}

TEST_CASE("the worker pool runs each piece once with at most N pieces at a time", "[job]") {
  CHECK(AvailableCores() >= 1);
  std::vector<int> runs(50, 0);
  std::atomic<int> running{0}, most{0};
  RunOnWorkers(runs.size(), 3, [&](size_t i) {
    int now = ++running;
    for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    ++runs[i];
    --running;
  });
  for (int r : runs) CHECK(r == 1);
  CHECK(most.load() <= 3);
  CHECK(most.load() >= 1);
}
