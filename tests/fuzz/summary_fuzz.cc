// libFuzzer target for summary files (job/summary_file.h), differential: any bytes either fail to
// read (a Status naming the place) or give a summary that
//  * writes back to bytes that read to the same summary (the same bytes again), and
//  * merged, into an empty summary and with a copy of itself under other ranks (as `profana
//    merge` would merge two jobs), either refuses with a Status (a sum that would not fit) or
//    gives a summary profana reads back: what profana writes, profana reads.
// The reports of the merged summary (table, steps, kernels, collectives) run too.
// Seeds: summaries written by `profana summarize` and `merge` of testdata/ (tests/fuzz/smoke.sh).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "profana/job/collective_analysis.h"
#include "profana/job/rank_summary.h"
#include "profana/job/step_statistics.h"
#include "profana/job/summary_file.h"
#include "profana/reporters/collectives_reporter.h"
#include "profana/reporters/job_table_reporter.h"
#include "profana/reporters/kernels_reporter.h"
#include "profana/reporters/steps_reporter.h"

namespace {

using profana::job::RankSummary;

// Every rank the summary names, moved up by `by`.
void ShiftRanks(RankSummary* s, int64_t by) {
  for (auto& src : s->sources) src.rank += by;
  for (auto& step : s->steps) step.rank += by;
  for (auto& o : s->row_origin) o.rank += by;
  for (auto& o : s->shape_row_origin) o.rank += by;
  for (auto& c : s->collectives) c.rank += by;
  for (auto& p : s->memory_peaks) p.rank += by;
}

// A copy of a summary (RankSummary holds its own string pool and is moved, not copied): the
// summary written and read again, which the fuzzer has already required to be the same.
RankSummary Copy(const RankSummary& s) {
  auto copy = profana::job::ParseSummary(profana::job::FormatSummary(s), "copy");
  if (!copy.ok()) std::abort();
  return std::move(*copy);
}

// A merge that succeeded must write a summary that reads back.
void RequireReadsBack(const RankSummary& s) {
  std::string text = profana::job::FormatSummary(s);
  auto again = profana::job::ParseSummary(text, "merged");
  if (!again.ok() || profana::job::FormatSummary(*again) != text) std::abort();
}

void RunReports(const RankSummary& s) {
  namespace r = profana::report;
  profana::job::JobSummary job;
  job.ranks.push_back(Copy(s));
  std::vector<int64_t> ranks = job.RankList();
  for (auto format : {r::OutputFormat::kText, r::OutputFormat::kJson, r::OutputFormat::kCsv}) {
    std::vector<RankSummary> parts;
    parts.push_back(Copy(s));
    r::FormatJobTable(format, std::move(parts), false, {"fuzz"}, {}, {});
  }
  r::StepsReport steps;
  steps.ranks = ranks;
  steps.steps = &s.steps;
  steps.overview = profana::job::OverviewOfSteps(s.steps);
  r::FormatStepsText(steps);
  r::FormatStepsJson(steps);
  r::KernelsReport kernels;
  kernels.ranks = ranks;
  kernels.stats = &s.kernels;
  for (auto view : {r::KernelView::kKernels, r::KernelView::kByOp, r::KernelView::kApi,
                    r::KernelView::kTransfers}) {
    kernels.view = view;
    r::FormatKernelsText(kernels);
    r::FormatKernelsJson(kernels);
  }
  if (s.collectives_recorded) {
    std::vector<profana::job::RankCalls> calls = profana::job::TakeRankCalls(&job);
    profana::job::CollectivesResult result = profana::job::AnalyzeCollectives(calls, true);
    r::CollectivesReport report;
    report.ranks = ranks;
    report.result = &result;
    r::FormatCollectivesText(report);
    r::FormatCollectivesJson(report);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto parsed = profana::job::ParseSummary(bytes, "fuzz");
  if (!parsed.ok()) return 0;
  std::string written = profana::job::FormatSummary(*parsed);
  auto again = profana::job::ParseSummary(written, "written");
  if (!again.ok() || profana::job::FormatSummary(*again) != written) std::abort();

  RankSummary alone;
  if (profana::job::Merge(&alone, *parsed).ok()) {
    RequireReadsBack(alone);
    RunReports(alone);
  }
  int64_t highest = 0;
  for (const auto& src : parsed->sources) highest = std::max(highest, src.rank);
  if (highest > (int64_t{1} << 40)) return 0;  // ranks that shifting would take out of range
  RankSummary other = Copy(*parsed);
  ShiftRanks(&other, highest + 1);
  RankSummary both = Copy(*parsed);
  if (profana::job::Merge(&both, other).ok()) RequireReadsBack(both);
  return 0;
}
