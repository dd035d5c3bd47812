// Everything `profana memory` shows of an allocator snapshot, worked out once: allocation sites,
// the state at snapshot time, and the history, per device (snapshot_state.h, snapshot_history.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/model/allocator_snapshot.h"
#include "profana/passes/memory/allocation_site.h"
#include "profana/passes/memory/snapshot_history.h"
#include "profana/passes/memory/snapshot_state.h"

namespace profana::passes {

struct SnapshotAnalysis {
  explicit SnapshotAnalysis(const AllocatorSnapshot& s) : sites(s) {}
  AllocationSites sites;
  std::vector<SnapshotDeviceState> states;  // devices with segments
  std::vector<SnapshotHistory> histories;   // devices with segments or history, by device id
  const SnapshotDeviceState* state(int64_t device) const;  // null when it has no segments
};

// `device` >= 0 keeps only that device; -1 keeps all.
SnapshotAnalysis AnalyzeSnapshot(const AllocatorSnapshot& snapshot, int64_t device = -1);

// How a snapshot's devices are named: torch.device's spelling, "cuda:0".
std::string SnapshotDeviceName(int64_t device);

// The device `name` means ("cuda:1", "cuda" for cuda:0, or "1"); -1 for an empty name (all).
// A device the snapshot does not hold is kInvalidArgument, listing those it does.
Result<int64_t> SelectSnapshotDevice(const AllocatorSnapshot& snapshot, const std::string& name);

}  // namespace profana::passes
