#include "profana/passes/memory/snapshot_diff.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace profana::passes {
namespace {

// A site by its frames' text, so sites of two snapshots (whose frame tables differ) match.
using SiteText = std::tuple<std::string, std::string, int64_t, std::string, std::string>;

SiteText TextOf(const AllocatorSnapshot& s, const AllocationSite& site) {
  SiteText t;
  if (site.python != kNoFrame) {
    const SnapshotFrame& f = s.frames[site.python];
    std::get<0>(t) = std::string(s.str(f.filename));
    std::get<1>(t) = std::string(s.str(f.name));
    std::get<2>(t) = f.line;
  }
  if (site.frame != kNoFrame) {
    const SnapshotFrame& f = s.frames[site.frame];
    std::get<3>(t) = std::string(s.str(f.name));
    std::get<4>(t) = std::string(s.str(f.filename));
  }
  return t;
}

SnapshotSide SideOf(const SnapshotAnalysis& a, int64_t device) {
  SnapshotSide side;
  if (const SnapshotDeviceState* st = a.state(device)) side.present = true, side.bytes = st->bytes;
  for (const SnapshotHistory& h : a.histories)
    if (h.device == device) {
      side.present = true;
      side.peak_allocated = h.peak_allocated;
      side.peak_reserved = h.peak_reserved;
      side.history_entries = static_cast<int64_t>(h.entry.size());
    }
  return side;
}

// Segments of one device keyed as _memory_viz's compare keys them.
std::multiset<std::pair<uint64_t, int64_t>> SegmentKeys(const AllocatorSnapshot& s,
                                                        int64_t device) {
  std::multiset<std::pair<uint64_t, int64_t>> keys;
  for (const SnapshotSegment& seg : s.segments)
    if (seg.device == device) keys.insert({seg.address, seg.total_size});
  return keys;
}

void OnlyIn(const std::multiset<std::pair<uint64_t, int64_t>>& a,
            const std::multiset<std::pair<uint64_t, int64_t>>& b, int64_t* count, int64_t* bytes) {
  for (const auto& key : a)
    if (!b.count(key)) ++*count, *bytes += key.second;
}

}  // namespace

std::vector<SnapshotDeviceDiff> DiffSnapshots(const AllocatorSnapshot& base,
                                              const SnapshotAnalysis& base_analysis,
                                              const AllocatorSnapshot& next,
                                              const SnapshotAnalysis& next_analysis) {
  std::set<int64_t> devices;
  for (const SnapshotHistory& h : base_analysis.histories) devices.insert(h.device);
  for (const SnapshotHistory& h : next_analysis.histories) devices.insert(h.device);
  std::vector<SnapshotDeviceDiff> out;
  for (int64_t device : devices) {
    SnapshotDeviceDiff d;
    d.device = device;
    d.base = SideOf(base_analysis, device);
    d.next = SideOf(next_analysis, device);
    auto base_keys = SegmentKeys(base, device), next_keys = SegmentKeys(next, device);
    OnlyIn(base_keys, next_keys, &d.segments_only_base, &d.bytes_only_base);
    OnlyIn(next_keys, base_keys, &d.segments_only_new, &d.bytes_only_new);
    std::map<SiteText, SiteChange> sites;
    if (const SnapshotDeviceState* st = base_analysis.state(device))
      for (const SiteBytes& r : st->allocated_by_site) {
        SiteChange& c = sites[TextOf(base, r.site)];
        c.base_site = r.site, c.in_base = true, c.base_bytes = r.bytes, c.base_blocks = r.blocks;
      }
    if (const SnapshotDeviceState* st = next_analysis.state(device))
      for (const SiteBytes& r : st->allocated_by_site) {
        SiteChange& c = sites[TextOf(next, r.site)];
        c.new_site = r.site, c.in_new = true, c.new_bytes = r.bytes, c.new_blocks = r.blocks;
      }
    for (auto& [text, change] : sites)
      if (change.change() != 0 || change.base_blocks != change.new_blocks)
        d.sites.push_back(change);
    std::stable_sort(d.sites.begin(), d.sites.end(), [](const SiteChange& a, const SiteChange& b) {
      int64_t x = a.change() < 0 ? -a.change() : a.change();
      int64_t y = b.change() < 0 ? -b.change() : b.change();
      return x > y;
    });
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace profana::passes
