// profana advise: findings about a trace or a job, ranked by the time each could save.
#pragma once

#include <string>

#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct AdviseArgs {
  CommonOptions common;
  std::vector<std::string> inputs;
  int64_t top = 0;  // -n: its default is AddRowLimitOption's
  int64_t small_kernel_ns = 10'000;
};

Status RunAdvise(const AdviseArgs& args, Session& session);

}  // namespace profana::run
