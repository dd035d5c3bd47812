#include "profana/passes/memory/snapshot_state.h"

#include <algorithm>
#include <map>

#include "profana/base/int_sum.h"

namespace profana::passes {
namespace {

void AddBlock(const SnapshotBlock& b, BlockBytes* to) {
  ++to->blocks;
  switch (b.state) {
    case BlockState::kActiveAllocated:
      to->allocated = SatAdd(to->allocated, b.size);
      to->requested = SatAdd(to->requested, b.requested_size);
      break;
    case BlockState::kActivePendingFree:
      to->pending_free = SatAdd(to->pending_free, b.size);
      break;
    case BlockState::kInactive:
      to->inactive = SatAdd(to->inactive, b.size);
      to->largest_inactive = std::max(to->largest_inactive, b.size);
      break;
  }
}

void AddBytes(const BlockBytes& from, BlockBytes* to) {
  to->reserved = SatAdd(to->reserved, from.reserved);
  to->allocated = SatAdd(to->allocated, from.allocated);
  to->pending_free = SatAdd(to->pending_free, from.pending_free);
  to->inactive = SatAdd(to->inactive, from.inactive);
  to->requested = SatAdd(to->requested, from.requested);
  to->largest_inactive = std::max(to->largest_inactive, from.largest_inactive);
  to->segments += from.segments;
  to->blocks += from.blocks;
}

}  // namespace

std::vector<SiteBytes> GroupBySite(std::vector<SiteBytes> rows) {
  auto by_key = [](const SiteBytes& a, const SiteBytes& b) {
    return SiteKey(a.site) < SiteKey(b.site);
  };
  std::sort(rows.begin(), rows.end(), by_key);
  std::vector<SiteBytes> out;
  for (const SiteBytes& r : rows) {
    if (!out.empty() && out.back().site == r.site) {
      out.back().bytes = SatAdd(out.back().bytes, r.bytes);
      out.back().blocks += r.blocks;
    } else {
      out.push_back(r);
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const SiteBytes& a, const SiteBytes& b) { return a.bytes > b.bytes; });
  return out;
}

std::vector<SnapshotDeviceState> ComputeSnapshotState(const AllocatorSnapshot& snapshot,
                                                      const AllocationSites& sites) {
  std::map<int64_t, SnapshotDeviceState> devices;
  std::map<std::pair<int64_t, int64_t>, BlockBytes> streams;  // (device, stream)
  std::map<int64_t, std::vector<SiteBytes>> allocated;        // device -> one row per block
  for (size_t i = 0; i < snapshot.segments.size(); ++i) {
    const SnapshotSegment& seg = snapshot.segments[i];
    SnapshotDeviceState& d = devices[seg.device];
    d.device = seg.device;
    SegmentState s{SegmentId(static_cast<uint32_t>(i)), {}};
    s.bytes.reserved = seg.total_size;
    s.bytes.segments = 1;
    int64_t block_sum = 0;
    for (uint32_t b = seg.first_block; b < seg.first_block + seg.block_count; ++b) {
      const SnapshotBlock& block = snapshot.blocks[b];
      AddBlock(block, &s.bytes);
      block_sum = SatAdd(block_sum, block.size);
      if (block.state == BlockState::kActiveAllocated)
        allocated[seg.device].push_back({sites.of(block.frames), block.size, 1});
    }
    if (block_sum != seg.total_size || s.bytes.allocated != seg.allocated_size)
      ++d.inconsistent_segments;
    if (seg.is_expandable) ++d.expandable_segments;
    AddBytes(s.bytes, &d.bytes);
    AddBytes(s.bytes, &streams[{seg.device, seg.stream}]);
    d.segments.push_back(s);
  }
  for (const auto& [key, bytes] : streams)
    devices[key.first].streams.push_back({key.second, bytes});
  std::vector<SnapshotDeviceState> out;
  for (auto& [id, d] : devices) {
    std::stable_sort(d.segments.begin(), d.segments.end(),
                     [](const SegmentState& a, const SegmentState& b) {
                       return a.bytes.unallocated() > b.bytes.unallocated();
                     });
    d.allocated_by_site = GroupBySite(std::move(allocated[id]));
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace profana::passes
