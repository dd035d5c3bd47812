// The allocator's recorded history (a snapshot's device_traces) as a timeline per device: the
// bytes allocated and reserved after each entry, the peak of each, what was live at the
// allocated peak grouped by allocation site, and the out-of-memory events with what was live then.
//
//  * Allocated bytes follow the allocator's memory_allocated(): an `alloc` adds its size, a
//    `free_requested` takes it away (the block is no longer the caller's; `free_completed` only
//    says its streams are done). Sizes are what the callers asked for, as the allocator records
//    them; memory_allocated() counts whole blocks (rounded up), so it is a little higher.
//  * Reserved bytes follow memory_reserved(): `segment_alloc` and `segment_map` add,
//    `segment_free` and `segment_unmap` take away.
//  * The history may begin after memory was allocated (recording started late, or the
//    allocator's ring buffer dropped its oldest entries). That memory is measured, not guessed:
//    what the snapshot holds at the end minus the history's net change (allocated: the requested
//    bytes of active_allocated blocks; reserved: the segments' sizes). Levels include it.
//  * An allocation pairs with the next free of its address on its device. A free of an address
//    the history never allocated frees memory from before the history.
// Pure function of the snapshot and its state (snapshot_state.h).
#pragma once

#include <cstdint>
#include <vector>

#include "profana/model/allocator_snapshot.h"
#include "profana/passes/memory/allocation_site.h"
#include "profana/passes/memory/snapshot_state.h"

namespace profana::passes {

// The live allocations at one moment, grouped by site; `before` is memory allocated before the
// history that has not been freed by then (its sites are unknown).
struct LiveMemory {
  std::vector<SiteBytes> by_site;  // requested bytes, most first
  int64_t before = 0;
};

struct OomEvent {
  size_t pos = 0;           // position in the device's history
  int64_t requested = 0;    // the allocation that failed
  int64_t device_free = 0;  // what the driver reported free
  int64_t allocated = 0;    // levels at that moment
  int64_t reserved = 0;
  LiveMemory live;  // for the first kOomsDetailed only
};
inline constexpr size_t kOomsDetailed = 8;

struct SnapshotHistory {
  int64_t device = 0;
  bool timed = false;  // entries carry time_us (PyTorch 2.1 and later)
  // Per entry of this device in recorded order (position p): its index in snapshot.entries and
  // the levels after it; `before` is the part of `allocated` allocated before the history.
  std::vector<uint32_t> entry;
  std::vector<int64_t> allocated;
  std::vector<int64_t> reserved;
  std::vector<int64_t> before;
  int64_t allocated_before = 0;  // when the history begins (may be negative if it is damaged)
  int64_t reserved_before = 0;
  int64_t peak_allocated = 0;  // highest level (allocated_before when there are no entries)
  int64_t peak_pos = -1;       // first position at the peak; -1: before the first entry
  int64_t peak_reserved = 0;
  int64_t peak_reserved_pos = -1;
  LiveMemory live_at_peak;
  std::vector<OomEvent> ooms;
  // Counts of the history's entries and of what could not be paired.
  int64_t allocs = 0;
  int64_t frees = 0;
  int64_t frees_before = 0;    // free_requested of an address the history never allocated
  int64_t alloc_on_live = 0;   // alloc of an address still live (its free was not recorded)
  int64_t time_reversals = 0;  // entries earlier than the one before
  int64_t time_us(const AllocatorSnapshot& s, size_t pos) const;  // the entry's time, or pos
};

// One history per device that has entries or segments, by device id; `states` from
// ComputeSnapshotState.
std::vector<SnapshotHistory> ComputeSnapshotHistory(const AllocatorSnapshot& snapshot,
                                                    const AllocationSites& sites,
                                                    const std::vector<SnapshotDeviceState>& states);

}  // namespace profana::passes
