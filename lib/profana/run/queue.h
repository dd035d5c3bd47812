// profana queue: the CUDA queue depth over time, globally as PyTorch computes it, and per device
// and stream by profana's definition or HTA's (--model).
#pragma once

#include <string>

#include "profana/passes/gpu_streams.h"
#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct QueueArgs {
  CommonOptions common;
  std::string file;
  std::string model = "profana";
  int32_t limit = passes::kCudaLaunchQueueLimit;
};

Status RunQueue(const QueueArgs& args, Session& session);

}  // namespace profana::run
