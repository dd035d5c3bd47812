// What an allocator snapshot held when it was taken, per device: reserved memory (segments),
// allocated, pending-free and cached (inactive) blocks, what the callers asked for, and
// fragmentation: memory reserved but not allocated, and how much of it one allocation could use
// (the largest inactive block) per segment and per stream. The figures are torch.cuda's:
// `allocated` is memory_allocated(), `reserved` is memory_reserved(), `active` the allocator's
// active bytes (allocated plus freed blocks still waiting for their streams).
// Pure function of the snapshot; rules in docs/memory.md ("Allocator snapshots").
#pragma once

#include <cstdint>
#include <vector>

#include "profana/model/allocator_snapshot.h"
#include "profana/passes/memory/allocation_site.h"

namespace profana::passes {

// Block bytes by state, and what the active blocks' callers asked for.
struct BlockBytes {
  int64_t reserved = 0;      // segments' total_size
  int64_t allocated = 0;     // active_allocated blocks
  int64_t pending_free = 0;  // active_pending_free blocks
  int64_t inactive = 0;      // cached blocks, free for reuse
  int64_t requested = 0;     // asked for by the active_allocated blocks' callers
  int64_t largest_inactive = 0;
  int64_t segments = 0;
  int64_t blocks = 0;
  int64_t active() const { return allocated + pending_free; }
  // Reserved but not allocated: what the cache holds (and, with the rounding inside allocated
  // blocks, allocated - requested, what fragmentation costs).
  int64_t unallocated() const { return reserved - allocated; }
};

struct StreamState {
  int64_t stream = 0;
  BlockBytes bytes;
};

// One segment's fragmentation: reserved, allocated, and its largest free block.
struct SegmentState {
  SegmentId segment;
  BlockBytes bytes;
};

// Active blocks grouped by where they were allocated.
struct SiteBytes {
  AllocationSite site;
  int64_t bytes = 0;   // block sizes
  int64_t blocks = 0;  // how many
};

struct SnapshotDeviceState {
  int64_t device = 0;
  BlockBytes bytes;
  int64_t expandable_segments = 0;
  std::vector<StreamState> streams;          // by stream id
  std::vector<SegmentState> segments;        // most unallocated bytes first, then segment order
  std::vector<SiteBytes> allocated_by_site;  // active_allocated blocks, most bytes first
  // Segments whose own figures disagree with their blocks (a damaged or hand-edited snapshot):
  // total_size != the blocks' sizes, or allocated_size != the active_allocated blocks'.
  int64_t inconsistent_segments = 0;
};

// One entry per device that has segments, by device id.
std::vector<SnapshotDeviceState> ComputeSnapshotState(const AllocatorSnapshot& snapshot,
                                                      const AllocationSites& sites);

// Groups (site, bytes) pairs: one row per site, most bytes first (ties: site order).
std::vector<SiteBytes> GroupBySite(std::vector<SiteBytes> rows);

}  // namespace profana::passes
