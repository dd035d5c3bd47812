// The memory page (memory_page.h) for an allocator snapshot's history.
#include "fmt/format.h"
#include "profana/base/int_sum.h"
#include "profana/reporters/memory_page.h"
#include "profana/reporters/number_format.h"
#include "profana/reporters/snapshot_reporter.h"

namespace profana::report {
namespace {

// Bottom to top: what was allocated before the history (its sites are unknown: grey, as the
// trace timeline's Unknown), what the history allocated, and what the allocator reserved on top
// of it (its cache, light).
const MemorySeries kSeries[] = {{"allocated before the history", "#808080"},
                                {"allocated", "#4169e1"},
                                {"reserved, not allocated", "#c8c8c8"}};

MemoryPlot DevicePlot(const AllocatorSnapshot& s, const passes::SnapshotAnalysis& a,
                      const passes::SnapshotHistory& h) {
  MemoryPlot m;
  m.name = passes::SnapshotDeviceName(h.device);
  m.timed = h.timed;
  m.series.assign(std::begin(kSeries), std::end(kSeries));
  const passes::SnapshotDeviceState* st = a.state(h.device);
  m.headers = {fmt::format("Max memory allocated: {:.2f} GiB ({}, requested bytes)",
                           h.peak_allocated / 1073741824.0, FormatBytes(h.peak_allocated)),
               fmt::format("Max memory reserved: {:.2f} GiB ({})", h.peak_reserved / 1073741824.0,
                           FormatBytes(h.peak_reserved))};
  m.note = st ? fmt::format("At snapshot time: {} allocated, {} reserved in {} segments",
                            FormatBytes(st->bytes.allocated), FormatBytes(st->bytes.reserved),
                            st->bytes.segments)
              : std::string("At snapshot time: no segments");
  size_t n = h.entry.size();
  int64_t t0 = n ? h.time_us(s, 0) : 0;
  auto offset_ns = [&](size_t p) {
    int64_t us = SatAdd(h.time_us(s, p), -t0);
    return h.timed ? (us > INT64_MAX / 1000 ? INT64_MAX : std::max<int64_t>(0, us) * 1000) : us;
  };
  for (size_t first = 0, last = 0; first < n; first = last + 1) {
    // Entries of the same microsecond are one row: the one with the most allocated, so the
    // peak is drawn.
    last = first;
    while (h.timed && last + 1 < n && h.time_us(s, last + 1) == h.time_us(s, first)) ++last;
    size_t p = first;
    for (size_t q = first; q <= last; ++q)
      if (h.allocated[q] > h.allocated[p]) p = q;
    // The page's rows go forward in time; an entry recorded earlier than the one before it
    // (counted as a time reversal) is drawn at that one's time.
    m.times_ns.push_back(m.times_ns.empty() ? offset_ns(p)
                                            : std::max(m.times_ns.back(), offset_ns(p)));
    int64_t allocated = h.allocated[p], before = h.before[p];
    m.values.push_back(before);
    m.values.push_back(SatAdd(allocated, -before));
    m.values.push_back(std::max<int64_t>(0, SatAdd(h.reserved[p], -allocated)));
  }
  if (h.peak_pos >= 0) {
    m.has_peak = true;
    m.peak_ns = offset_ns(static_cast<size_t>(h.peak_pos));
    m.peak_bytes = h.peak_allocated;
    if (!h.live_at_peak.by_site.empty())
      m.peak_label = "most from " + SiteLabel(s, h.live_at_peak.by_site.front().site);
  }
  for (const passes::OomEvent& o : h.ooms)
    m.markers.push_back(
        {offset_ns(o.pos), fmt::format("out of memory: {} requested, {} free",
                                       FormatBytes(o.requested), FormatBytes(o.device_free))});
  return m;
}

}  // namespace

std::string FormatSnapshotHtml(const AllocatorSnapshot& s, const passes::SnapshotAnalysis& a,
                               const std::string& title) {
  std::vector<MemoryPlot> plots;
  for (const passes::SnapshotHistory& h : a.histories) plots.push_back(DevicePlot(s, a, h));
  return FormatMemoryPage(title, plots);
}

}  // namespace profana::report
