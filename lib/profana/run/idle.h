// profana idle: GPU idle time per device and stream, split into host wait / kernel wait / other,
// with the longest gaps.
#pragma once

#include <string>

#include "profana/reporters/idle_reporter.h"
#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct IdleArgs {
  CommonOptions common;
  std::string file;
  int64_t kernel_delay_ns = 30000;  // HTA's 30, on Kineto's microsecond timestamps
  int64_t gaps = 0;                 // -n: its default is AddRowLimitOption's
  report::IdleTextOptions text;
};

Status RunIdle(const IdleArgs& args, Session& session);

}  // namespace profana::run
