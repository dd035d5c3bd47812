// profana memory: the memory timeline rebuilt from [memory] events: peaks, what was live at the
// peak, blocks never freed, pre-existing memory, per-op memory, and PyTorch's export formats; or,
// for an allocator snapshot (a pickle), its segments, blocks and history.
#pragma once

#include <algorithm>
#include <string>

#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct MemoryArgs {
  CommonOptions common;
  std::string file;
  std::string device;
  bool by_op = false;
  int64_t top = 0;  // -n: its default is AddRowLimitOption's
};

Status RunMemory(const MemoryArgs& args, Session& session);

}  // namespace profana::run
