#include "profana/reporters/memory_html.h"

#include <algorithm>

#include "fmt/format.h"
#include "profana/reporters/memory_page.h"
#include "profana/reporters/number_format.h"

namespace profana::report {
namespace {

// The reference's _CATEGORY_TO_COLORS (matplotlib's named colours), in category order (drawn
// bottom to top), alpha 0.7 as its fill_between.
const char* const kColors[passes::kMemoryCategories] = {
    "#006400" /* darkgreen */, "#daa520" /* goldenrod */,
    "#000000" /* black */,     "#9370db" /* mediumpurple */,
    "#ff0000" /* red */,       "#0000cd" /* mediumblue */,
    "#4169e1" /* royalblue */, "#808080" /* grey */};

// Header lines as the reference's: max allocated, max reserved (the allocator's when recorded);
// the note says what the plot leaves out, so the axis and the header lines agree.
void Headers(const passes::MemoryDeviceSummary& s, MemoryPlot* m) {
  int64_t max_alloc =
      s.max_total_allocated != kNoId ? s.max_total_allocated : s.plotted_peak_bytes();
  // The reference's GiB with two decimals; small values also in a unit that shows them.
  auto gib = [](int64_t bytes) {
    std::string text = fmt::format("{:.2f} GiB", bytes / 1073741824.0);
    return bytes > 0 && bytes < (int64_t{10} << 20) ? text + " (" + FormatBytes(bytes) + ")" : text;
  };
  // The allocator's total counts memory allocated before the trace; the plot (and its peak
  // marker) only what the trace allocates: when they differ, both are given, labelled.
  std::string plotted = max_alloc != s.plotted_peak_bytes()
                            ? fmt::format(", the allocator's total; plotted peak: {}",
                                          FormatBytes(s.plotted_peak_bytes()))
                            : std::string();
  std::string reserved =
      s.max_total_reserved != kNoId ? gib(s.max_total_reserved) : std::string("not recorded");
  m->headers = {"Max memory allocated: " + gib(max_alloc) + plotted,
                "Max memory reserved: " + reserved};
  int64_t before = std::max<int64_t>(0, s.before_trace.unidentified);
  std::string plotted_what = s.before_trace.identified() > 0
                                 ? "memory the trace allocates or frees, and the parameters and "
                                   "optimizer state from before it"
                                 : "memory the trace allocates or frees";
  m->note = before > 0 ? fmt::format(
                             "Plotted: {}; {} more was allocated before the trace and is not "
                             "identified",
                             plotted_what, FormatBytes(before))
                       : "Plotted: " + plotted_what;
}

// One device's timeline as a plot: times from the trace's start (on the timeline's clock,
// PyTorch's epoch microseconds), the categories as series.
MemoryPlot DevicePlot(const StringPool& strings, const passes::FunctionEventList& ev,
                      const passes::MemoryTimeline& t, const passes::MemoryDeviceView& view,
                      const MemoryHtmlOptions& o) {
  const passes::MemoryDeviceSummary& s = t.summary[view.device];
  MemoryPlot m;
  m.name = t.devices[view.device].name;
  Headers(s, &m);
  for (int c = 0; c < passes::kMemoryCategories; ++c)
    m.series.push_back(
        {passes::MemoryCategoryName(static_cast<passes::MemoryCategory>(c)), kColors[c]});
  const int64_t origin = o.origin_ns + o.epoch_shift_ns;
  const passes::CoalescedTimeline& tl = view.timeline;
  for (size_t i = 0; i < tl.times_us.size(); ++i) {
    // Microseconds as the export truncates them: the first row may fall just before the origin.
    m.times_ns.push_back(std::max<int64_t>(0, tl.times_us[i] * 1000 - origin));
    for (int c = 1; c <= passes::kMemoryCategories; ++c) m.values.push_back(tl.sizes[i][c]);
  }
  if (s.peak_pos >= 0) {
    m.has_peak = true;
    m.peak_ns = std::max<int64_t>(0, view.report.peak_ts_ns - o.origin_ns);
    m.peak_bytes = s.plotted_peak_bytes();
    m.peak_label = view.report.peak_op
                       ? std::string(strings.Get(ev.name[view.report.peak_op->value]))
                       : "no op";
  }
  return m;
}

}  // namespace

std::string FormatMemoryHtml(const StringPool& strings, const passes::FunctionEventList& ev,
                             const passes::MemoryTimeline& t,
                             const std::vector<passes::MemoryDeviceView>& views,
                             const MemoryHtmlOptions& o) {
  std::vector<MemoryPlot> plots;
  for (const passes::MemoryDeviceView& v : views) plots.push_back(DevicePlot(strings, ev, t, v, o));
  return FormatMemoryPage(o.title, plots);
}

}  // namespace profana::report
