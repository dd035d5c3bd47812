// Two allocator snapshots compared, per device: the state figures side by side (reserved,
// allocated, cached, fragmentation, the history's peaks), the segments only one of them has
// (keyed by address and size, as torch/cuda/_memory_viz.py's compare does), and the allocated
// bytes by allocation site, matched by the sites' frames (file, line and function of the Python
// frame, the native frame's name), largest change first.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/model/allocator_snapshot.h"
#include "profana/passes/memory/snapshot_analysis.h"

namespace profana::passes {

// One side's figures of a device (zero where that side does not have the device).
struct SnapshotSide {
  bool present = false;
  BlockBytes bytes;
  int64_t peak_allocated = 0;
  int64_t peak_reserved = 0;
  int64_t history_entries = 0;
};

struct SiteChange {
  AllocationSite base_site;  // in the base snapshot (kNoFrame parts when only the new one has it)
  AllocationSite new_site;   // in the new snapshot
  bool in_base = false, in_new = false;
  int64_t base_bytes = 0, new_bytes = 0;
  int64_t base_blocks = 0, new_blocks = 0;
  int64_t change() const { return new_bytes - base_bytes; }
};

struct SnapshotDeviceDiff {
  int64_t device = 0;
  SnapshotSide base, next;
  int64_t segments_only_base = 0, bytes_only_base = 0;  // by (address, total_size)
  int64_t segments_only_new = 0, bytes_only_new = 0;
  std::vector<SiteChange> sites;  // largest |change| first; unchanged sites left out
};

// Devices of either snapshot, by id; `device` >= 0 keeps one.
std::vector<SnapshotDeviceDiff> DiffSnapshots(const AllocatorSnapshot& base,
                                              const SnapshotAnalysis& base_analysis,
                                              const AllocatorSnapshot& next,
                                              const SnapshotAnalysis& next_analysis);

}  // namespace profana::passes
