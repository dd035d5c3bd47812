// profana critical-path: HTA's critical path of each step (or one step, or an annotation's
// instance) of a trace, or of every rank of a job; what-if predictions; the overlay trace.
#pragma once

#include <string>

#include "profana/passes/critical_path/critical_path.h"
#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct CriticalPathArgs {
  CommonOptions common;
  std::vector<std::string> inputs;
  int64_t events = 0;  // -n: its default is AddRowLimitOption's
  std::string overlay;
  bool overlay_all_edges = false;
  passes::CpRequest request;  // the window asked for (--step, --annotation), --what-if, ...
};

Status RunCriticalPath(const CriticalPathArgs& args, Session& session);

}  // namespace profana::run
