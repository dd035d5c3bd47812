// profana check FILE: a CI gate. With --budget, every rule of the budget file, on a trace or a
// whole job; with --baseline, no regression beyond --max-regression; with neither, the trace's
// own consistency. Exit 0 when everything holds, 1 when a rule fails (each failure listed), 2 for
// bad input or a bad budget.
#pragma once

#include <string>

#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct CheckArgs {
  CommonOptions common;
  std::string file;
  std::string budget;
  std::string baseline;
  job::RankSelection ranks;  // --ranks 0-3,7: only these ranks of a job
  double max_regression = 0.05;
};

Status RunCheck(const CheckArgs& args, Session& session);

}  // namespace profana::run
