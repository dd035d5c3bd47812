// The rules of a budget measured on FILE, for `check --budget`: one trace as a trace
// (passes::EvaluateBudget), unless a rule is a job metric; a directory, a glob or a summary file
// (or a job metric, or selected ranks) as a job, its ranks combined (EvaluateJobBudget); advise.*
// rules on the findings of `profana advise` (EvaluateAdviceRules).
#pragma once

#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/job/run_job.h"
#include "profana/passes/budget.h"

namespace profana::job {

struct BudgetRun {
  std::vector<passes::RuleResult> results;  // in the budget's order
  std::vector<std::string> paths;           // the inputs read
};

// `request` is what FILE is read with (--ranks, --jobs, the load request, --link); its inputs
// are not read. A rule that cannot be measured is an error starting with `budget_file`. The notes
// are appended to *notes, those before a failure too.
Result<BudgetRun> MeasureBudget(const std::string& input, const std::string& budget_file,
                                const passes::Budget& budget, const JobRequest& request,
                                std::vector<LoadNote>* notes);
// The same from FILE's sniff (SniffInputs({input})): the file it opened is the one every rule
// reads.
Result<BudgetRun> MeasureBudget(const std::string& input, SniffedInputs sniffed,
                                const std::string& budget_file, const passes::Budget& budget,
                                const JobRequest& request, std::vector<LoadNote>* notes);

}  // namespace profana::job
