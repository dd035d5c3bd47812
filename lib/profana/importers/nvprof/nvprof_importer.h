// nvprof SQLite importer (`nvprof -o run.nvvp`, often with PyTorch's emit_nvtx markers).
// The database is opened from memory, read-only: profana never writes, locks, or leaves a journal
// beside the user's file. Semantics of PyTorch's parse_nvprof_trace, with its defects fixed
// (docs/semantics.md, "nvprof").
#pragma once

#include <string_view>

#include "profana/base/input_buffer.h"
#include "profana/base/status.h"
#include "profana/model/trace.h"

namespace profana::nvprof {

bool SniffSqlite(std::string_view bytes);
Result<Trace> ImportNvprof(const InputBuffer& input);

}  // namespace profana::nvprof
