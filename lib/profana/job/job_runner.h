// SummarizeJob: reads the inputs of a job on a bounded pool of workers, each loading one trace,
// reducing it to its RankSummary and dropping the trace before it takes the next file, so at
// most `workers` traces are held at once. Results are placed by rank, never by completion order.
#pragma once

#include <functional>
#include <vector>

#include "profana/base/status.h"
#include "profana/job/job_inputs.h"
#include "profana/job/rank_summary.h"

namespace profana::job {

// Loads and summarises one input (the caller's filters, warnings, passes). Called from several
// threads at once: it may only write what belongs to its input. Its summary's source rank is
// the trace's distributedInfo.rank or -1; SummarizeJob resolves it (ResolveRank). An input that
// holds several processes (process_split.h) gives one summary per process, in pid order: they
// are the ranks from the input's own rank on (rank, rank + 1, ...). `cores`: how many cores its
// load may parse on, its share of the process's among the traces read at once (at least 1).
using Summarizer = std::function<Result<std::vector<RankSummary>>(const JobInput&, size_t cores)>;

// workers = 0: AvailableCores(). Errors: the first failing input in input order; two inputs of
// one rank (naming both files); a --ranks selection that keeps none of the inputs.
Result<JobSummary> SummarizeJob(const std::vector<JobInput>& inputs, const RankSelection& ranks,
                                size_t workers, const Summarizer& summarize);

}  // namespace profana::job
