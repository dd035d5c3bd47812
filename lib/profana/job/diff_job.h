// BASE against NEW, for `diff` and `check --baseline`: two traces diffed as traces (DiffTraces);
// when either side is a directory, a glob or a summary file, or ranks are selected, two jobs,
// each its ranks' key averages and steps (DiffRows). And the key-averages job `table` reads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/job/job_inputs.h"
#include "profana/job/run_job.h"
#include "profana/passes/key_averages.h"
#include "profana/passes/trace_diff.h"

namespace profana::job {

// `request` with every rank's key averages by `keys` in its summary, from traces or summary
// files (taken as their traces would be: SummaryInput::kForTable); with `steps`, each rank's step
// rows too.
JobRequest TableJobRequest(JobRequest request, const passes::KeyAverageOptions& keys, bool steps);

// RunJob of TableJobRequest, the traces loaded without the columns those key averages never read
// (TableUnread).
Result<JobRun> RunTableJob(JobRequest request, const passes::KeyAverageOptions& keys, bool steps,
                           std::vector<LoadNote>* notes);

struct DiffRun {
  passes::TraceDiff diff;
  std::vector<std::string> paths;  // the inputs read: BASE's, then NEW's
};

// One diff per rank (--by-rank).
struct RankDiff {
  int64_t rank = -1;
  passes::TraceDiff diff;
};
struct RankDiffsRun {
  std::vector<RankDiff> diffs;  // in rank order
  std::vector<std::string> paths;
};

// BASE or NEW as the command line names it. A single file (SniffInputs: a trace or an allocator
// snapshot) is opened once, here, and read from that open file by whatever compares it; a job (a
// directory, a glob, a summary file) is expanded by its path, a summary file read from the file
// opened here.
struct DiffSide {
  std::string path;
  std::optional<JobInput> single;      // nullopt: a job
  std::shared_ptr<InputFile> summary;  // a summary file, open
  // The file opened here, either way (SniffedInputs::opened).
  std::shared_ptr<InputFile> opened() const { return single ? single->file : summary; }
};
DiffSide OpenDiffSide(const std::string& path);

// `request` is what each side is read with (--ranks, --jobs, the load request, --link); its
// inputs are not read: each side's are `base` and `next`. Two single traces (and no ranks
// selected) are diffed as traces, read from the files OpenDiffSide opened; anything else as two
// jobs, each its ranks combined. The notes are appended to *notes, those before a failure too.
Result<DiffRun> DiffInputs(const DiffSide& base, const DiffSide& next, const JobRequest& request,
                           const passes::DiffOptions& options, std::vector<LoadNote>* notes);

// --by-rank: the two jobs' ranks matched by rank, one diff each, in rank order; a rank in one job
// only is all added or all removed. Each side is read from the file OpenDiffSide opened, when it
// opened one (a trace or a summary file).
Result<RankDiffsRun> DiffInputsByRank(const DiffSide& base, const DiffSide& next,
                                      const JobRequest& request, const passes::DiffOptions& options,
                                      std::vector<LoadNote>* notes);

}  // namespace profana::job
