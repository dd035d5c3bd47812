// AnalyzeMemoryDevice: the answers `profana memory` prints for one device of a MemoryTimeline:
// the op at the peak and its ancestors, what was live at the peak (by allocating op and by
// category), blocks never freed, and frees of memory allocated before the trace.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "profana/passes/memory_timeline.h"

namespace profana::passes {

// Blocks grouped by the name of the op that allocated (or freed) them.
struct MemoryOpGroup {
  enum Kind : uint8_t { kOp, kNoOp, kBeforeTrace };
  Kind kind = kOp;  // kNoOp: inside no CPU op ("[memory]"); kBeforeTrace: pre-existing
  StringId name;    // for kOp
  uint64_t blocks = 0;
  int64_t bytes = 0;
};

struct MemoryDeviceReport {
  int64_t peak_ts_ns = 0;
  int64_t peak_total_allocated = kNoId;  // the allocator's total recorded at the peak record
  std::optional<FnEventId> peak_op;      // the innermost op at the peak record
  std::vector<FnEventId> peak_op_path;   // outermost first, ending with peak_op
  // At the peak, as the timeline's row there: every category, with what the trace identifies of
  // the memory from before it; Unknown includes unpaired records. And the part of each allocated
  // before the trace (pre-existing blocks, identified parameters and optimizer state).
  std::array<int64_t, kMemoryCategories> live_by_category{};
  std::array<int64_t, kMemoryCategories> live_before_trace_by_category{};
  std::vector<MemoryOpGroup> live_by_op;  // at the peak, largest first
  uint64_t not_freed_blocks = 0;
  int64_t not_freed_bytes = 0;
  std::vector<MemoryOpGroup> not_freed_by_op;
  uint64_t preexisting_frees = 0;
  int64_t preexisting_bytes = 0;
  std::vector<MemoryOpGroup> preexisting_by_op;  // grouped by the op that freed them
};

MemoryDeviceReport AnalyzeMemoryDevice(const Trace& trace, const FunctionEventList& events,
                                       const MemoryTimeline& t, uint32_t device);

}  // namespace profana::passes
