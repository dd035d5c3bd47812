#include "profana/passes/memory/snapshot_history.h"

#include <map>
#include <utility>

#include "profana/base/flat_hash_map.h"
#include "profana/base/int_sum.h"

namespace profana::passes {
namespace {

// What the replay of one device keeps beside the levels: where each allocation is freed, and the
// frees of memory from before the history.
struct Pairing {
  std::vector<int64_t> free_pos;                         // per position: -1 = never freed
  std::vector<std::pair<size_t, int64_t>> frees_before;  // (position, bytes)
};

LiveMemory LiveAt(const AllocatorSnapshot& s, const AllocationSites& sites,
                  const SnapshotHistory& h, const Pairing& pairing, size_t pos) {
  LiveMemory live;
  std::vector<SiteBytes> rows;
  for (size_t p = 0; p <= pos; ++p) {
    const SnapshotEntry& e = s.entries[h.entry[p]];
    if (e.action != SnapshotAction::kAlloc) continue;
    int64_t freed = pairing.free_pos[p];
    if (freed >= 0 && static_cast<size_t>(freed) <= pos) continue;
    rows.push_back({sites.of(e.frames), e.size, 1});
  }
  live.by_site = GroupBySite(std::move(rows));
  live.before = h.allocated_before;
  for (const auto& [p, bytes] : pairing.frees_before)
    if (p <= pos) live.before = SatAdd(live.before, -bytes);
  return live;
}

void Replay(const AllocatorSnapshot& s, const AllocationSites& sites,
            const SnapshotDeviceState* state, SnapshotHistory* h) {
  size_t n = h->entry.size();
  Pairing pairing;
  pairing.free_pos.assign(n, -1);
  FlatHashMap<uint64_t, int64_t> open;  // address -> position of its live allocation, or -1
  h->allocated.resize(n);
  h->reserved.resize(n);
  h->before.resize(n);
  int64_t allocated = 0, reserved = 0, freed_before = 0, last_time = INT64_MIN;
  for (size_t p = 0; p < n; ++p) {
    const SnapshotEntry& e = s.entries[h->entry[p]];
    if (h->timed && e.time_us < last_time) ++h->time_reversals;
    if (h->timed) last_time = e.time_us;
    switch (e.action) {
      case SnapshotAction::kAlloc: {
        allocated = SatAdd(allocated, e.size);
        ++h->allocs;
        auto [slot, inserted] = open.try_emplace(e.addr, static_cast<int64_t>(p));
        if (!inserted) {
          if (*slot >= 0) {  // its free was not recorded: the old block ends here
            ++h->alloc_on_live;
            pairing.free_pos[*slot] = static_cast<int64_t>(p);
          }
          *slot = static_cast<int64_t>(p);
        }
        break;
      }
      case SnapshotAction::kFreeRequested: {
        allocated = SatAdd(allocated, -e.size);
        ++h->frees;
        int64_t* slot = open.find(e.addr);
        if (slot && *slot >= 0) {
          pairing.free_pos[*slot] = static_cast<int64_t>(p);
          *slot = -1;
        } else {
          ++h->frees_before;
          freed_before = SatAdd(freed_before, e.size);
          pairing.frees_before.emplace_back(p, e.size);
        }
        break;
      }
      case SnapshotAction::kSegmentAlloc:
      case SnapshotAction::kSegmentMap:
        reserved = SatAdd(reserved, e.size);
        break;
      case SnapshotAction::kSegmentFree:
      case SnapshotAction::kSegmentUnmap:
        reserved = SatAdd(reserved, -e.size);
        break;
      case SnapshotAction::kOom: {
        OomEvent oom;
        oom.pos = p;
        oom.requested = e.size;
        oom.device_free = e.device_free;
        h->ooms.push_back(oom);
        break;
      }
      default:
        break;
    }
    h->allocated[p] = allocated;
    h->reserved[p] = reserved;
    h->before[p] = -freed_before;
  }
  // What the snapshot holds at its end, less the history's net change, was there before it.
  h->allocated_before = SatAdd(state ? state->bytes.requested : 0, -allocated);
  h->reserved_before = SatAdd(state ? state->bytes.reserved : 0, -reserved);
  h->peak_allocated = h->allocated_before;
  h->peak_reserved = h->reserved_before;
  for (size_t p = 0; p < n; ++p) {
    h->allocated[p] = SatAdd(h->allocated[p], h->allocated_before);
    h->reserved[p] = SatAdd(h->reserved[p], h->reserved_before);
    h->before[p] = SatAdd(h->before[p], h->allocated_before);
    if (h->allocated[p] > h->peak_allocated)
      h->peak_allocated = h->allocated[p], h->peak_pos = static_cast<int64_t>(p);
    if (h->reserved[p] > h->peak_reserved)
      h->peak_reserved = h->reserved[p], h->peak_reserved_pos = static_cast<int64_t>(p);
  }
  if (h->peak_pos >= 0)
    h->live_at_peak = LiveAt(s, sites, *h, pairing, static_cast<size_t>(h->peak_pos));
  else
    h->live_at_peak.before = h->allocated_before;
  for (size_t i = 0; i < h->ooms.size(); ++i) {
    OomEvent& oom = h->ooms[i];
    oom.allocated = h->allocated[oom.pos];
    oom.reserved = h->reserved[oom.pos];
    if (i < kOomsDetailed) oom.live = LiveAt(s, sites, *h, pairing, oom.pos);
  }
}

}  // namespace

int64_t SnapshotHistory::time_us(const AllocatorSnapshot& s, size_t pos) const {
  return timed ? s.entries[entry[pos]].time_us : static_cast<int64_t>(pos);
}

std::vector<SnapshotHistory> ComputeSnapshotHistory(
    const AllocatorSnapshot& snapshot, const AllocationSites& sites,
    const std::vector<SnapshotDeviceState>& states) {
  std::map<int64_t, SnapshotHistory> devices;
  std::map<int64_t, const SnapshotDeviceState*> state_of;
  for (const SnapshotDeviceState& st : states) {
    devices[st.device].device = st.device;
    state_of[st.device] = &st;
  }
  for (size_t i = 0; i < snapshot.entries.size(); ++i) {
    const SnapshotEntry& e = snapshot.entries[i];
    SnapshotHistory& h = devices[e.device];
    h.device = e.device;
    h.entry.push_back(static_cast<uint32_t>(i));
    h.timed |= e.time_us != 0;
  }
  std::vector<SnapshotHistory> out;
  for (auto& [device, h] : devices) {
    auto st = state_of.find(device);
    Replay(snapshot, sites, st == state_of.end() ? nullptr : st->second, &h);
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace profana::passes
