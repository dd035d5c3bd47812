// profana collectives: each collective matched across the ranks of a job, with its skew,
// transfer time, waits and bandwidth; the stragglers; the clock offsets that align the ranks.
#pragma once

#include <string>

#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct CollectivesArgs {
  CommonOptions common;
  JobArgs job;
  bool no_align = false;
  std::string table;      // --table: which table CSV holds (collectives or stragglers)
  int64_t row_limit = 0;  // -n: its default is AddRowLimitOption's
};

Status RunCollectives(const CollectivesArgs& args, Session& session);

}  // namespace profana::run
