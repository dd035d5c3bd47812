// profana info: what a trace file holds (format, counts, time span, devices) and what was wrong
// with it (every diagnostic kind with its count and first samples).
#pragma once

#include <string>

#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct InfoArgs {
  CommonOptions common;
  std::string file;
};

Status RunInfo(const InfoArgs& args, Session& session);

}  // namespace profana::run
