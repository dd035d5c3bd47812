// Budget rules (passes/budget.h, docs/budget.md) measured on a whole job: its ranks' key
// averages combined (as `table DIR` sums them), their step breakdowns and kernel statistics.
// The job metrics:
//  * max_step_time: the highest of the ranks' mean step wall times; per_step: the longest
//    (rank, step) wall;
//  * rank_skew: the highest minus the lowest of the ranks' mean step wall times; per_step: of
//    each step number, the longest minus the shortest wall over the ranks that ran it, the
//    worst step;
//  * comm_exposed_share, idle_share: exposed communication (idle) over wall, summed over every
//    (rank, step, device) row; per_step: each row's own share, the worst row;
//  * kernel_share: the time of the kernels named `op` (full or shortened name) over the time of
//    every kernel, memcpy and memset (the total of `profana kernels`).
// A per_step rule reports the step furthest past a limit, else the highest value (the lowest for
// a rule with only "min"), and names it in the note. Pure: no printing.
#pragma once

#include <vector>

#include "profana/base/status.h"
#include "profana/job/rank_summary.h"
#include "profana/passes/budget.h"

namespace profana::job {

// The job needs table rows, steps and kernels (SummaryOptions table, steps, kernels). Errors
// (kInvalidArgument) name the rule: a metric that needs one trace (gpu_idle_share,
// peak_memory), per_step or a step metric without ProfilerStep#N markers, a share without
// device activity.
Result<std::vector<passes::RuleResult>> EvaluateJobBudget(const JobSummary& job,
                                                          const passes::Budget& budget);

}  // namespace profana::job
