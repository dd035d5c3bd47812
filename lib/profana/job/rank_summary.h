// RankSummary: what the whole-job commands keep of one rank's trace once it is read, so the trace
// can be dropped before the next is held; JobSummary: the ranks of a job, in rank order.
// Nothing in a summary grows with the trace except keyed tables (one row per distinct name), the
// step rows and the collective ledger (one entry per communication kernel). Each section has a
// merge rule, and Combine() merges the ranks in rank order, so the combined result does not depend
// on which file finished loading first:
//  * identity: one entry per source (path, rank, format, size), concatenated;
//  * table rows (key averages): summed per key, in first-appearance order over the ranks (each
//    row remembers the rank and position it first appeared at, so any merge order gives the same
//    order); counts and nanosecond sums are exact integers, and a combination of several sources
//    displays from them (PyTorch's float sums are not associative; a single rank keeps its own
//    floats, so its table prints as the single-trace table does);
//  * stacks: summed per stack; kernels, by-op and API statistics: DurationStats::Merge per name;
//  * step rows: concatenated, each tagged with its rank;
//  * the collective ledger and memory peaks: per rank, concatenated in rank order (collectives
//    are matched across ranks by collective_analysis.h, never summed). A section some of the
//    merged summaries do not record (an older profana wrote them) is not recorded in the result.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/base/string_pool.h"
#include "profana/job/collective_calls.h"
#include "profana/job/kernel_stats.h"
#include "profana/job/step_breakdown.h"
#include "profana/passes/key_averages.h"
#include "profana/passes/trace_diff.h"

namespace profana::job {

struct SourceInfo {
  std::string path;
  int64_t rank = -1;
  int64_t world_size = -1;
  std::string format;
  uint64_t input_bytes = 0;
  std::vector<std::string> devices;  // deviceProperties names
  std::string hash;                  // of the file's bytes (SourceHash); empty for standard input
};

// Where a table row first appeared: the rank, and the row's position in that rank's table.
struct RowOrigin {
  int64_t rank = -1;
  int64_t position = 0;
  bool operator<(const RowOrigin& o) const {
    return rank != o.rank ? rank < o.rank : position < o.position;
  }
};

// What a command asks SummarizeRank to keep.
struct SummaryOptions {
  bool table = false;
  passes::KeyAverageOptions key_averages;
  bool shape_table = false;  // also the rows grouped by input shape (a summary file keeps both)
  bool steps = false;
  bool kernels = false;
  bool collectives = false;  // the collective ledger and process groups
  bool memory = false;       // memory peaks per device
};

struct RankStep {
  int64_t rank = -1;
  StepRow row;
};

// One rank's collective ledger: what `collectives` needs of the rank besides its steps.
struct RankCollectives {
  int64_t rank = -1;
  std::vector<CollectiveCall> calls;  // FindCollectiveCalls: communication kernels, start order
  std::vector<ProcessGroup> groups;   // FindProcessGroups: by name
};

// One device's memory peak on one rank, as `profana memory` replays the [memory] records.
struct MemoryPeak {
  int64_t rank = -1;
  std::string device;  // torch.device's spelling: "cuda:0", "cpu"
  int64_t records = 0;
  int64_t peak_bytes = 0;            // peak allocated: pre-existing bytes + the running total
  int64_t max_total_allocated = -1;  // the allocator's, as recorded; -1 when not recorded
  int64_t max_total_reserved = -1;
};

struct RankSummary {
  std::vector<SourceInfo> sources;  // one for a rank; several once combined
  // Key averages; StringIds refer to `strings`.
  StringPool strings;
  std::vector<passes::AverageRow> rows;
  std::vector<RowOrigin> row_origin;           // parallel to rows
  std::vector<passes::AverageRow> shape_rows;  // grouped by input shape, with shape_table
  std::vector<RowOrigin> shape_row_origin;
  bool has_memory_records = false;
  bool with_flops = false;                // a source was recorded with_flops: its table shows FLOPs
  std::map<std::string, int64_t> stacks;  // collapsed stack -> weight
  std::vector<RankStep> steps;            // by (rank, step)
  KernelStats kernels;
  // The collective ledger, one entry per source rank, by rank (SummaryOptions::collectives).
  bool collectives_recorded = false;
  std::vector<RankCollectives> collectives;
  // Memory peaks by (rank, device) (SummaryOptions::memory); none when has_memory_records is
  // false.
  bool memory_recorded = false;
  std::vector<MemoryPeak> memory_peaks;
  // Read from a summary file: its ranks were settled when it was written.
  bool ranks_settled = false;

  int64_t rank() const { return sources.empty() ? -1 : sources.front().rank; }
};

// Gives a one-source summary its rank (sources, steps and row origins).
void SetRank(RankSummary* summary, int64_t rank);

// A summary read from a file, made what SummarizeRank would make of a trace for `table` with
// `keys`: the rows grouped by input shape when asked; an error for --group-by-stack, whose
// stacks a summary does not keep.
Status UseSummaryForTable(RankSummary* summary, const std::string& path,
                          const passes::KeyAverageOptions& keys);

// The passes a summary needs, on one loaded trace (and its function events).
RankSummary SummarizeRank(const Trace& trace, const passes::FunctionEventList& events,
                          const std::string& path, const SummaryOptions& options);

// Adds `other` into `into`: associative and commutative (sources sorted by rank and hash, rows
// by their origin, steps by rank and step). Once `into` holds several sources its rows' float
// times are the exact sums / 1000. Every sum is checked: an error names the row, stack or kernel
// whose merged count or total would not fit in 64 bits (`into` is then half merged).
Status Merge(RankSummary* into, const RankSummary& other);

// What every report of a summary adds up besides its merged sums (a table's totals, the kernels'
// total, a stack relabelled into another) fits in 64 bits: Merge checks it, and so does reading a
// summary file. An error names the total that does not.
Status CheckTotalsFit(const RankSummary& summary);

struct JobSummary {
  // One per input, by its (lowest) rank; a merged summary file holds several ranks.
  std::vector<RankSummary> ranks;
  // The ranks of every source, ascending (a summary may hold several).
  std::vector<int64_t> RankList() const;
  // Every rank merged; table times then show the exact sums. Merge's error, naming the source.
  Result<RankSummary> Combine() const;
};

// What a whole-job table shows: the ranks combined, or (by_rank) each rank on its own, with the
// rows sorted by `sort`.
Result<std::vector<RankSummary>> TableParts(JobSummary job, bool by_rank, passes::SortKey sort);

// The (rank, step) pairs of a summary and the mean length of their ProfilerStep#N events: what
// `diff` divides by when two jobs ran different numbers of steps.
passes::StepStats JobStepStats(const RankSummary& summary);

// "0-3,5,7": the ranks as short ranges, for headers.
std::string FormatRankList(const std::vector<int64_t>& ranks);

}  // namespace profana::job
