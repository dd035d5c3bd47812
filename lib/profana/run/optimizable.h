// profana optimizable: PyTorch's BasicEvaluation.get_optimizable_events, from a trace file.
#pragma once

#include <string>

#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct OptimizableArgs {
  CommonOptions common;
  std::string file;
  int64_t top = 0;  // -n: its default is AddRowLimitOption's
};

Status RunOptimizable(const OptimizableArgs& args, Session& session);

}  // namespace profana::run
