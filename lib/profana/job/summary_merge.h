// Adding summary files up into one (profana merge). Each input is read once, and only its first
// bytes when they are not a summary's. The merge is associative and commutative (job::Merge), so
// any grouping and order of the same summaries gives the same bytes.
#pragma once

#include <vector>

#include "profana/base/status.h"
#include "profana/job/job_inputs.h"
#include "profana/job/rank_summary.h"

namespace profana::job {

// Refuses an input that is not a summary file, and a source (by content hash) or a rank that two
// inputs hold, naming both files: merging would count it twice.
Result<RankSummary> MergeSummaryFiles(const std::vector<JobInput>& inputs);

}  // namespace profana::job
