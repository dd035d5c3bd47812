// profana stacks: flamegraph input (PyTorch's export_stacks, merged, differential) and an
// interactive SVG, from Python stacks or from the op tree.
#pragma once

#include <optional>
#include <string>

#include "profana/run/command_options.h"
#include "profana/run/session.h"
#include "profana/run/stacks_load.h"

namespace profana::run {

struct StacksArgs {
  CommonOptions common;
  JobArgs job;  // inputs: one trace, BASE NEW with --diff, or several traces (a job)
  std::string metric_text = "self_cpu";  // as given: the SVG's title says it
  StacksRequest request;
  std::string unit = "us";
  bool merge = false, diff = false, full_paths = false, fold_instances = false;
  std::string svg;
};

Status RunStacks(const StacksArgs& args, Session& session);

}  // namespace profana::run
