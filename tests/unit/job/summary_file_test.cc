// Summary files and profana merge's arithmetic: the merge is associative and commutative down to
// the bytes (random partitions and orders of the real 8-rank DLRM job), a summary reads back as
// the bytes it was written from, and damaged or foreign summaries are refused with their place.
#include "profana/job/summary_file.h"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "fixtures.h"
#include "profana/job/rank_summary.h"
#include "test_util.h"

using namespace profana;
using profana::test::TestData;

namespace {

// Twelve ranks whose summaries hold every section: the DLRM job (ranks 0-7: key averages, steps,
// kernels, collectives matched by kernel name), the two ranks of collectives_groups as ranks 8
// and 9 (two named process groups, message sizes, dtypes), and two traces with memory records as
// ranks 10 (cuda:0) and 11 (cpu). A merge adds unlike ranks as readily as like ones.
const std::vector<job::RankSummary>& MixedRanks() {
  static const std::vector<job::RankSummary> ranks = [] {
    std::vector<job::RankSummary> out;
    for (const job::RankSummary& r : test::DlrmRankSummaries()) {
      auto copy = job::ParseSummary(job::FormatSummary(r), "copy");
      REQUIRE(copy.ok());
      out.push_back(std::move(*copy));
    }
    out.push_back(test::SummarizeAsRank(TestData("job/collectives_groups/rank0.json"), 8));
    out.push_back(test::SummarizeAsRank(TestData("job/collectives_groups/rank1.json"), 9));
    out.push_back(test::SummarizeAsRank(TestData("memory/categories.json"), 10));
    out.push_back(
        test::SummarizeAsRank(TestData("oracle/cnn_train/all/trace.kineto_like.json"), 11));
    return out;
  }();
  return ranks;
}

// A copy (summaries hold a move-only string pool): written and read back.
job::RankSummary Copy(const job::RankSummary& s) {
  auto back = job::ParseSummary(job::FormatSummary(s), "copy");
  REQUIRE(back.ok());
  return std::move(*back);
}

// Merges `parts` (indexes into ranks) as a random binary tree, each summary written and read back
// between merges as the cluster's files are.
job::RankSummary MergeTree(std::vector<job::RankSummary> parts, std::mt19937& rng) {
  while (parts.size() > 1) {
    std::uniform_int_distribution<size_t> pick(0, parts.size() - 1);
    size_t a = pick(rng), b = pick(rng);
    while (b == a) b = pick(rng);
    job::RankSummary merged;
    REQUIRE(job::Merge(&merged, parts[a]).ok());
    REQUIRE(job::Merge(&merged, parts[b]).ok());
    auto reread = job::ParseSummary(job::FormatSummary(merged), "merged");
    REQUIRE(reread.ok());
    if (a < b) std::swap(a, b);
    parts.erase(parts.begin() + static_cast<ptrdiff_t>(a));
    parts[b] = std::move(*reread);
  }
  return std::move(parts.front());
}

}  // namespace

TEST_CASE("summaries: a rank's summary reads back as the bytes it was written from", "[summary]") {
  const job::RankSummary& rank3 = test::DlrmRankSummaries()[3];
  std::string text = job::FormatSummary(rank3);
  CHECK(job::LooksLikeSummary(text));
  auto back = job::ParseSummary(text, "rank3.pfs");
  REQUIRE(back.ok());
  CHECK(job::FormatSummary(*back) == text);
  CHECK(back->sources.size() == 1);
  CHECK(back->sources[0].rank == 3);
  CHECK(back->sources[0].hash.size() == 32);
  CHECK(back->rows.size() == rank3.rows.size());
  CHECK(back->steps.size() == rank3.steps.size());
  CHECK(back->kernels.kernels.size() == rank3.kernels.kernels.size());
  // The float sums of a single source survive exactly (they decide the printed last digit).
  for (size_t i = 0; i < rank3.rows.size(); ++i) {
    CHECK(back->rows[i].self_cpu_us == rank3.rows[i].self_cpu_us);
    CHECK(back->rows[i].cuda_total_us == rank3.rows[i].cuda_total_us);
  }
}

TEST_CASE("summaries: every merge tree and order gives the same bytes", "[summary]") {
  const std::vector<job::RankSummary>& ranks = MixedRanks();
  job::RankSummary in_order;
  for (const job::RankSummary& r : ranks) REQUIRE(job::Merge(&in_order, r).ok());
  std::string expected = job::FormatSummary(in_order);
  REQUIRE(in_order.sources.size() == 12);
  // Twelve sources: the rows show the exact sums, and the first rank's row order.
  CHECK(in_order.rows[0].self_cpu_us == in_order.rows[0].self_cpu_ns / 1000.0);
  CHECK(in_order.row_origin.front().rank == 0);
  // The ledger: one entry per rank, in rank order. DLRM's ranks record no process group (8 calls
  // each, matched by kernel name); rank 8 runs group "0"'s all-reduce [100, 200) us and
  // all-gather [400, 450) us, and group "1"'s all-reduce [300, 340) us of 250,000 bf16.
  REQUIRE(in_order.collectives_recorded);
  REQUIRE(in_order.collectives.size() == 12);
  for (size_t r = 0; r < 12; ++r) CHECK(in_order.collectives[r].rank == static_cast<int64_t>(r));
  CHECK(in_order.collectives[3].calls.size() == 8);
  CHECK(in_order.collectives[3].groups.empty());
  const job::RankCollectives& r8 = in_order.collectives[8];
  REQUIRE(r8.calls.size() == 3);
  CHECK(r8.calls[1].group == "1");
  CHECK(r8.calls[1].start_ns == 300000);
  CHECK(r8.calls[1].end_ns == 340000);
  CHECK(r8.calls[1].bytes == 500000);
  CHECK(r8.calls[1].dtype == "BFloat16");
  CHECK(r8.calls[2].kind == job::CollectiveKind::kAllGather);
  REQUIRE(r8.groups.size() == 2);
  CHECK(r8.groups[0].name == "0");
  CHECK(r8.groups[0].ranks == "[0, 1]");
  CHECK(r8.groups[0].size == 2);
  CHECK(r8.groups[0].calls == 2);
  CHECK(r8.groups[1].calls == 1);
  CHECK(in_order.collectives[10].calls.empty());
  // Memory peaks as `profana memory` prints them: categories.json's cuda:0 peaks at 7,456 B
  // (max Total Allocated 11,552 B, reserved 1 MiB); cnn_train's CPU at 105,616 B.
  REQUIRE(in_order.memory_recorded);
  REQUIRE(in_order.memory_peaks.size() == 2);
  CHECK(in_order.memory_peaks[0].rank == 10);
  CHECK(in_order.memory_peaks[0].device == "cuda:0");
  CHECK(in_order.memory_peaks[0].records == 20);
  CHECK(in_order.memory_peaks[0].peak_bytes == 7456);
  CHECK(in_order.memory_peaks[0].max_total_allocated == 11552);
  CHECK(in_order.memory_peaks[0].max_total_reserved == 1048576);
  CHECK(in_order.memory_peaks[1].rank == 11);
  CHECK(in_order.memory_peaks[1].device == "cpu");
  CHECK(in_order.memory_peaks[1].peak_bytes == 105616);
  std::mt19937 rng(20261124);
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<job::RankSummary> parts;
    for (const job::RankSummary& r : ranks) parts.push_back(Copy(r));
    std::shuffle(parts.begin(), parts.end(), rng);
    // A random partition: the first k ranks summarised together, as one array task would.
    size_t k = std::uniform_int_distribution<size_t>(1, 4)(rng);
    job::RankSummary group;
    for (size_t i = 0; i < k; ++i) REQUIRE(job::Merge(&group, parts[i]).ok());
    parts.erase(parts.begin(), parts.begin() + static_cast<ptrdiff_t>(k));
    parts.push_back(std::move(group));
    INFO("trial " << trial << ", a group of " << k);
    CHECK(job::FormatSummary(MergeTree(std::move(parts), rng)) == expected);
  }
}

TEST_CASE("summaries: a section an older summary lacks is not recorded once merged", "[summary]") {
  // A summary written before the ledger and the memory peaks (the same file without them) reads,
  // and merged with a newer one, the result records neither, whichever comes first.
  std::string text = job::FormatSummary(MixedRanks()[8]);
  size_t from = text.find(",\n\"memory_peaks\"");
  size_t to = text.find(",\n\"table\"");
  REQUIRE(from != std::string::npos);
  std::string old = text.substr(0, from) + text.substr(to);
  from = old.find(",\n\"collectives\"");
  to = old.find(",\n\"stacks\"");
  REQUIRE(from != std::string::npos);
  old = old.substr(0, from) + old.substr(to);
  auto older = job::ParseSummary(old, "old.pfs");
  REQUIRE(older.ok());
  CHECK(!older->collectives_recorded);
  CHECK(!older->memory_recorded);
  CHECK(job::FormatSummary(*older) == old);
  const job::RankSummary& newer = MixedRanks()[9];
  job::RankSummary a, b;
  REQUIRE(job::Merge(&a, *older).ok());
  REQUIRE(job::Merge(&a, newer).ok());
  REQUIRE(job::Merge(&b, newer).ok());
  REQUIRE(job::Merge(&b, *older).ok());
  CHECK(!a.collectives_recorded);
  CHECK(a.collectives.empty());
  CHECK(job::FormatSummary(a) == job::FormatSummary(b));
  CHECK(job::FormatSummary(a).find("\"collectives\"") == std::string::npos);
}

TEST_CASE("summaries: damaged, foreign and newer files are refused with their place", "[summary]") {
  std::string text = job::FormatSummary(test::DlrmRankSummaries()[0]);
  auto with_in = [](std::string t, const std::string& from, const std::string& to) {
    size_t at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  auto with = [&](const std::string& from, const std::string& to) {
    return with_in(text, from, to);
  };
  auto newer = job::ParseSummary(with("profana.summary/1", "profana.summary/2"), "new.pfs");
  REQUIRE(!newer.ok());
  CHECK(newer.status().code() == ErrorCode::kUnsupportedVersion);
  CHECK(newer.status().message().find("new.pfs: summary format profana.summary/2") == 0);

  auto count = job::ParseSummary(with("\"count\": ", "\"count\": \"x\", \"was\": "), "c.pfs");
  REQUIRE(!count.ok());
  CHECK(count.status().message() ==
        "c.pfs: not a usable summary: table[0].count: expected an integer");

  // A field missing before an object that is read next: the error names the field, and nothing
  // is read from the object the failure left empty (the summary fuzz target found that read).
  size_t busy = text.find("\"sm_busy_ns\": ");
  REQUIRE(busy != std::string::npos);
  std::string no_busy = text;
  no_busy.replace(busy, 12, "\"sm_idle_ns\"");
  auto missing = job::ParseSummary(no_busy, "m.pfs");
  REQUIRE(!missing.ok());
  INFO(missing.status().message());
  CHECK(missing.status().message().find("m.pfs: not a usable summary: steps[0].devices[0]: no "
                                        "\"sm_busy_ns\"") == 0);

  // Exact values that do not add up to the count.
  std::string stats = "\"stats\": {\"count\": ";
  size_t at = text.find(stats);
  REQUIRE(at != std::string::npos);
  std::string bad = text;
  bad.insert(at + stats.size(), "1");
  auto sums = job::ParseSummary(bad, "s.pfs");
  REQUIRE(!sums.ok());
  CHECK(sums.status().message().find("kernels.kernels[0].stats: counts, extremes and values do "
                                     "not agree") != std::string::npos);

  // The ledger: a call lost shows as a seq that does not follow; a rank's entry missing or out
  // of order, as a rank that is not the next.
  std::string ledger = job::FormatSummary(test::DlrmRankSummaries()[2]);
  size_t second = ledger.find("\n  {\"seq\": 1, \"kind\": \"sendrecv\"");
  REQUIRE(second != std::string::npos);
  std::string lost = ledger;
  lost.erase(second, lost.find('\n', second + 1) - second);
  auto seq = job::ParseSummary(lost, "l.pfs");
  REQUIRE(!seq.ok());
  CHECK(seq.status().message() ==
        "l.pfs: not a usable summary: collectives[0].calls[1].seq: 2, where the calls before it "
        "in its group make it 1");
  auto rank = job::ParseSummary(
      with_in(ledger, "{\"rank\": 2, \"process_groups\"", "{\"rank\": 5, \"process_groups\""),
      "r.pfs");
  REQUIRE(!rank.ok());
  CHECK(rank.status().message().find("r.pfs: not a usable summary: collectives[0].rank: the "
                                     "ledger holds one entry per rank of the sources") == 0);
  auto kind = job::ParseSummary(with_in(ledger, "\"kind\": \"allreduce\"", "\"kind\": \"gossip\""),
                                "k.pfs");
  REQUIRE(!kind.ok());
  CHECK(kind.status().message().find(".kind: unknown \"gossip\"") != std::string::npos);

  auto truncated = job::ParseSummary(text.substr(0, text.size() / 2), "t.pfs");
  REQUIRE(!truncated.ok());
  CHECK(truncated.status().message().find("t.pfs: not a usable summary: JSON") == 0);
  CHECK(!job::LooksLikeSummary("{\"traceEvents\": []}"));
}
