// A CUDA caching-allocator snapshot (torch.cuda.memory._snapshot(), the pickle that
// torch.cuda.memory._dump_snapshot() writes and pytorch.org/memory_viz reads), as plain tables:
// the segments and blocks at snapshot time, the recorded allocator history per device
// (device_traces), the stacks they carry, and the allocator's settings. Filled only by the
// snapshot importer; passes/memory/ reads it. Sizes are bytes, times microseconds since the epoch
// as the allocator records them.
//
// Rows are small structs (a snapshot holds thousands to a few million of them, read in order by
// each pass), ids are typed indices into these tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "profana/base/ids.h"
#include "profana/base/string_pool.h"

namespace profana {

using SnapshotStackId = Id<struct SnapshotStackTag>;  // 0 = no frames
using SegmentId = Id<struct SegmentTag>;

// A block's state at snapshot time (the allocator's BlockInfo).
enum class BlockState : uint8_t {
  kActiveAllocated,    // "active_allocated": in use
  kActivePendingFree,  // "active_pending_free": freed, waiting for its streams' events
  kInactive,           // "inactive": cached, free for reuse
};

// device_traces actions (the allocator's TraceEntry::Action).
enum class SnapshotAction : uint8_t {
  kAlloc,          // "alloc": a block handed out (size: the size asked for)
  kFreeRequested,  // "free_requested": the tensor freed it (allocated bytes drop here)
  kFreeCompleted,  // "free_completed": its streams are done, the block is reusable
  kSegmentAlloc,   // "segment_alloc": cudaMalloc
  kSegmentFree,    // "segment_free": cudaFree
  kSegmentMap,     // "segment_map": expandable segment grown (cuMemMap)
  kSegmentUnmap,   // "segment_unmap": expandable segment shrunk
  kSnapshot,       // "snapshot": a snapshot was taken
  kOom,            // "oom": an allocation failed (size asked for; device_free beside it)
};
inline constexpr int kSnapshotActions = 9;

// Frame names and file names keep their first 4,096 bytes (cut at a character) and "[...]": a
// site's label and every report stay bounded however long a hostile file makes them.
inline constexpr size_t kMaxSnapshotFrameText = 4096;

// Sizes above this (1 PiB) are refused on import; the passes add sizes with saturation.
inline constexpr int64_t kMaxSnapshotBytes = int64_t{1} << 50;
const char* SnapshotActionName(SnapshotAction a);  // "alloc", "free_requested", ...

struct SnapshotFrame {
  StringId name;
  StringId filename;
  int64_t line = 0;
};

struct SnapshotSegment {
  int64_t device = 0;
  uint64_t address = 0;
  int64_t total_size = 0;      // reserved
  int64_t allocated_size = 0;  // in active_allocated blocks
  int64_t active_size = 0;     // in active blocks (allocated or pending free)
  int64_t requested_size = 0;  // what those blocks' callers asked for
  int64_t stream = 0;
  StringId segment_type;  // "large" or "small"
  bool is_expandable = false;
  uint32_t first_block = 0;  // its blocks: blocks[first_block, first_block + block_count)
  uint32_t block_count = 0;
  SnapshotStackId frames;  // where cudaMalloc was called
};

struct SnapshotBlock {
  SegmentId segment;
  uint64_t address = 0;
  int64_t size = 0;            // the block's size (rounded up)
  int64_t requested_size = 0;  // what its caller asked for
  BlockState state = BlockState::kInactive;
  SnapshotStackId frames;  // where it was allocated (active blocks)
};

struct SnapshotEntry {
  int64_t device = 0;
  SnapshotAction action = SnapshotAction::kAlloc;
  uint64_t addr = 0;
  int64_t size = 0;
  int64_t stream = 0;
  int64_t time_us = 0;      // epoch microseconds; 0 when the entry has none (old snapshots)
  int64_t device_free = 0;  // oom: what the driver said was free
  SnapshotStackId frames;
};

// An external annotation (record_function ranges the snapshot kept beside the history).
struct SnapshotAnnotation {
  int64_t device = 0;
  bool start = true;  // "START" or "END"
  StringId name;
  int64_t time_us = 0;
};

struct AllocatorSnapshot {
  StringPool strings;
  std::vector<SnapshotFrame> frames;
  // Stack s: frames[stack_frames[stack_offsets[s]] ...] up to stack_offsets[s + 1], innermost
  // first, as the snapshot lists them. Stack 0 is empty.
  std::vector<uint32_t> stack_offsets = {0, 0};
  std::vector<uint32_t> stack_frames;
  std::vector<SnapshotSegment> segments;  // in the snapshot's order
  std::vector<SnapshotBlock> blocks;      // grouped by segment, in the snapshot's order
  std::vector<SnapshotEntry> entries;     // device by device, each in recorded order
  std::vector<SnapshotAnnotation> annotations;
  int64_t devices = 0;  // device_traces' length (devices that may have a history)
  // allocator_settings, where the snapshot has them.
  bool expandable_segments = false;
  std::string alloc_conf;  // PYTORCH_CUDA_ALLOC_CONF
  // History entries whose action this reader does not know (a newer PyTorch's): skipped.
  uint64_t unknown_actions = 0;

  size_t stack_size(SnapshotStackId s) const {
    return stack_offsets[s.value + 1] - stack_offsets[s.value];
  }
  const SnapshotFrame& frame(SnapshotStackId s, size_t i) const {
    return frames[stack_frames[stack_offsets[s.value] + i]];
  }
  std::string_view str(StringId id) const { return strings.Get(id); }
};

}  // namespace profana
