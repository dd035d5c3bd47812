// profana merge: adds up summary files (profana summarize) into one. The merge is associative
// and commutative: any grouping and order of the same summaries gives the same bytes.
#pragma once

#include <string>

#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct MergeArgs {
  CommonOptions common;
  std::vector<std::string> inputs;
};

Status RunMerge(const MergeArgs& args, Session& session);

}  // namespace profana::run
