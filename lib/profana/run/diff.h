// profana diff BASE NEW: where one trace spent more time than the other, per key_averages key;
// for two allocator snapshots, how their memory differs.
#pragma once

#include <string>

#include "profana/passes/trace_diff.h"
#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct DiffArgs {
  CommonOptions common;
  std::string base;
  std::string next;
  job::RankSelection ranks;  // --ranks, on both sides
  passes::DiffOptions options;
  int64_t row_limit = 0;  // -n: its default is AddRowLimitOption's
  std::optional<int> max_name_width;
  bool no_truncate = false;
  bool full_names = false;
  std::string color = "auto";
  bool by_rank = false;
};

Status RunDiff(const DiffArgs& args, Session& session);

}  // namespace profana::run
