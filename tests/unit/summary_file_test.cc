// Summary files and profana merge's arithmetic: the merge is associative and commutative down to
// the bytes (random partitions and orders of the real 8-rank DLRM job), a summary reads back as
// the bytes it was written from, and damaged or foreign summaries are refused with their place.
#include "profana/job/summary_file.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "profana/importers/importer.h"
#include "profana/job/rank_summary.h"
#include "profana/job/source_hash.h"
#include "profana/passes/function_events.h"
#include "test_util.h"

using namespace profana;
using profana::test::TestData;

namespace {

// One summary per rank of the DLRM job, each as `profana summarize` makes it.
const std::vector<job::RankSummary>& DlrmRanks() {
  static const std::vector<job::RankSummary> ranks = [] {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(TestData("traces/param/dlrm_kineto")))
      files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() == 8);
    std::vector<job::RankSummary> out;
    job::SummaryOptions so;
    so.table = so.shape_table = so.steps = so.kernels = true;
    for (const std::string& f : files) {
      auto loaded = LoadTrace(f);
      REQUIRE(loaded.ok());
      passes::FunctionEventList events = passes::BuildFunctionEvents(loaded->trace, std::nullopt);
      job::RankSummary s = job::SummarizeRank(loaded->trace, events, f, so);
      auto hash = job::SourceHash(f);
      REQUIRE(hash.ok());
      s.sources.front().hash = *hash;
      job::SetRank(&s, loaded->trace.metadata.rank);
      out.push_back(std::move(s));
    }
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
    job::Merge(&merged, parts[a]);
    job::Merge(&merged, parts[b]);
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
  const job::RankSummary& rank3 = DlrmRanks()[3];
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
  const std::vector<job::RankSummary>& ranks = DlrmRanks();
  job::RankSummary in_order;
  for (const job::RankSummary& r : ranks) job::Merge(&in_order, r);
  std::string expected = job::FormatSummary(in_order);
  REQUIRE(in_order.sources.size() == 8);
  // Eight sources: the rows show the exact sums, and the first rank's row order.
  CHECK(in_order.rows[0].self_cpu_us == in_order.rows[0].self_cpu_ns / 1000.0);
  CHECK(in_order.row_origin.front().rank == 0);
  std::mt19937 rng(20261124);
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<job::RankSummary> parts;
    for (const job::RankSummary& r : ranks) parts.push_back(Copy(r));
    std::shuffle(parts.begin(), parts.end(), rng);
    // A random partition: the first k ranks summarised together, as one array task would.
    size_t k = std::uniform_int_distribution<size_t>(1, 4)(rng);
    job::RankSummary group;
    for (size_t i = 0; i < k; ++i) job::Merge(&group, parts[i]);
    parts.erase(parts.begin(), parts.begin() + static_cast<ptrdiff_t>(k));
    parts.push_back(std::move(group));
    INFO("trial " << trial << ", a group of " << k);
    CHECK(job::FormatSummary(MergeTree(std::move(parts), rng)) == expected);
  }
}

TEST_CASE("summaries: damaged, foreign and newer files are refused with their place", "[summary]") {
  std::string text = job::FormatSummary(DlrmRanks()[0]);
  auto with = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    size_t at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  auto newer = job::ParseSummary(with("profana.summary/1", "profana.summary/2"), "new.pfs");
  REQUIRE(!newer.ok());
  CHECK(newer.status().code() == ErrorCode::kUnsupportedVersion);
  CHECK(newer.status().message().find("new.pfs: summary format profana.summary/2") == 0);

  auto count = job::ParseSummary(with("\"count\": ", "\"count\": \"x\", \"was\": "), "c.pfs");
  REQUIRE(!count.ok());
  CHECK(count.status().message() ==
        "c.pfs: not a usable summary: table[0].count: expected an integer");

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

  auto truncated = job::ParseSummary(text.substr(0, text.size() / 2), "t.pfs");
  REQUIRE(!truncated.ok());
  CHECK(truncated.status().message().find("t.pfs: not a usable summary: JSON") == 0);
  CHECK(!job::LooksLikeSummary("{\"traceEvents\": []}"));
}
