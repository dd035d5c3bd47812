#include "profana/passes/memory/snapshot_analysis.h"

#include <algorithm>
#include <set>

#include "fmt/format.h"
#include "profana/passes/trace_filter.h"

namespace profana::passes {

const SnapshotDeviceState* SnapshotAnalysis::state(int64_t device) const {
  for (const SnapshotDeviceState& s : states)
    if (s.device == device) return &s;
  return nullptr;
}

SnapshotAnalysis AnalyzeSnapshot(const AllocatorSnapshot& snapshot, int64_t device) {
  SnapshotAnalysis a(snapshot);
  a.states = ComputeSnapshotState(snapshot, a.sites);
  a.histories = ComputeSnapshotHistory(snapshot, a.sites, a.states);
  if (device >= 0) {
    auto other = [&](const auto& x) { return x.device != device; };
    a.states.erase(std::remove_if(a.states.begin(), a.states.end(), other), a.states.end());
    a.histories.erase(std::remove_if(a.histories.begin(), a.histories.end(), other),
                      a.histories.end());
  }
  return a;
}

std::string SnapshotDeviceName(int64_t device) { return fmt::format("cuda:{}", device); }

Result<int64_t> SelectSnapshotDevice(const AllocatorSnapshot& snapshot, const std::string& name) {
  if (name.empty()) return int64_t{-1};
  std::set<int64_t> present;
  for (const SnapshotSegment& s : snapshot.segments) present.insert(s.device);
  for (const SnapshotEntry& e : snapshot.entries) present.insert(e.device);
  Result<int32_t> index = ParseDeviceIndex(name);
  int32_t want = name == "cuda" ? 0 : index.ok() ? *index : -1;
  if (want >= 0 && present.count(want)) return int64_t{want};
  std::string list;
  for (int64_t d : present) list += (list.empty() ? "" : ", ") + SnapshotDeviceName(d);
  return Status(ErrorCode::kInvalidArgument,
                fmt::format("--device {}: the snapshot has no such device (it has: {})", name,
                            list.empty() ? "none" : list));
}

}  // namespace profana::passes
