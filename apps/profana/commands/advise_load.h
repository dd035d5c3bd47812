// Loading a trace or a job for advice: each input's findings, and, for a job, the straggler
// rule on its collectives. `advise` prints the report; `check --budget` measures advise.* rules
// on it.
#pragma once

#include <string>
#include <vector>

#include "profana/commands/commands.h"
#include "profana/job/advice/advice.h"
#include "profana/reporters/advise_reporter.h"

namespace profana::app {

Result<report::AdviceReport> LoadAdvice(const std::vector<std::string>& inputs,
                                        const CommonOptions& options, Context& ctx,
                                        const job::AdviceOptions& advice);

}  // namespace profana::app
