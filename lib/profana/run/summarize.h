// profana summarize: the per-rank summary file (docs/summary-format.md) that the whole-job
// commands read in place of the trace, and that profana merge adds up.
#pragma once

#include <string>

#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct SummarizeArgs {
  CommonOptions common;
  JobArgs job;
};

Status RunSummarize(const SummarizeArgs& args, Session& session);

}  // namespace profana::run
