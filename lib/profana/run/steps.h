// profana steps: where each ProfilerStep#N's time goes, per rank, and across the job.
#pragma once

#include <optional>
#include <string>

#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct StepsArgs {
  CommonOptions common;
  JobArgs job;
  std::optional<double> peak_tflops;
};

Status RunSteps(const StepsArgs& args, Session& session);

}  // namespace profana::run
