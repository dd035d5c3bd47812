// profana tree: the CPU op tree per thread, with self and total time, the device activity each op
// launched, and input shapes.
#pragma once

#include <string>

#include "profana/reporters/tree_reporter.h"
#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct TreeArgs {
  CommonOptions common;
  std::string file;
  std::string thread;
  int64_t min_time_ns = 0;
  bool no_fold = false;
  report::TreeReportOptions report;
};

Status RunTree(const TreeArgs& args, Session& session);

}  // namespace profana::run
