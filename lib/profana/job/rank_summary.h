// RankSummary: what the whole-job commands keep of one rank's trace once it is read, so the trace
// can be dropped before the next is held; JobSummary: the ranks of a job, in rank order.
// Nothing in a summary grows with the trace except keyed tables (one row per distinct name) and
// the step rows. Each section has a merge rule, and Combine() merges the ranks in rank order, so
// the combined result does not depend on which file finished loading first:
//  * identity: one entry per source (path, rank, format, size), concatenated;
//  * table rows (key averages): summed per key, in first-appearance order over the ranks; counts
//    and nanosecond sums are exact integers, and a combination of several ranks displays from
//    them (PyTorch's float sums are not associative; a single rank keeps its own floats, so its
//    table prints as the single-trace table does);
//  * stacks: summed per stack; kernels, by-op and API statistics: DurationStats::Merge per name;
//  * step rows: concatenated, each tagged with its rank.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profana/base/string_pool.h"
#include "profana/job/kernel_stats.h"
#include "profana/job/step_breakdown.h"
#include "profana/passes/key_averages.h"

namespace profana::job {

struct SourceInfo {
  std::string path;
  int64_t rank = -1;
  int64_t world_size = -1;
  std::string format;
  uint64_t input_bytes = 0;
  std::vector<std::string> devices;  // deviceProperties names
};

// What a command asks SummarizeRank to keep.
struct SummaryOptions {
  bool table = false;
  passes::KeyAverageOptions key_averages;
  bool steps = false;
  bool kernels = false;
};

struct RankStep {
  int64_t rank = -1;
  StepRow row;
};

struct RankSummary {
  std::vector<SourceInfo> sources;  // one for a rank; several once combined
  // Key averages; StringIds refer to `strings`.
  StringPool strings;
  std::vector<passes::AverageRow> rows;
  bool has_memory_records = false;
  std::map<std::string, int64_t> stacks;  // collapsed stack -> weight
  std::vector<RankStep> steps;            // by (rank, step)
  KernelStats kernels;

  int64_t rank() const { return sources.empty() ? -1 : sources.front().rank; }
};

// The passes a summary needs, on one loaded trace (and its function events).
RankSummary SummarizeRank(const Trace& trace, const passes::FunctionEventList& events,
                          const std::string& path, const SummaryOptions& options);

// Adds `other` into `into` (rows keep into's order, then other's new keys).
void Merge(RankSummary* into, const RankSummary& other);

struct JobSummary {
  std::vector<RankSummary> ranks;  // ascending rank, one per rank
  std::vector<int64_t> RankList() const;
  // Every rank merged in rank order; table times then show the exact sums.
  RankSummary Combine() const;
};

// "0-3,5,7": the ranks as short ranges, for headers.
std::string FormatRankList(const std::vector<int64_t>& ranks);

}  // namespace profana::job
