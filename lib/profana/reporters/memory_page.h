// The memory page: one self-contained HTML page of stacked memory plots, drawn the same way for a
// trace's memory timeline (memory_html.h) and an allocator snapshot's history (snapshot_html.h).
// Each plot: a title line and the header lines its caller gives, a legend of the series it draws,
// stacked areas as step functions, a time axis as an offset from the plot's origin in a unit that
// fits its span (us, ms or s) and a byte axis (B, KiB, MiB or GiB), the peak marked with its size,
// time and label, event markers, and (by the script, assets/memory_timeline.js) the values under
// the pointer and zoom into a time range. Several plots get a selector that shows one at a time.
// Inline SVG and script: no external scripts, fonts or styles.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace profana::report {

struct MemorySeries {
  std::string name;
  std::string colour;  // a CSS colour
};

struct MemoryMarker {
  int64_t time_ns = 0;  // from the plot's origin
  std::string label;
};

struct MemoryPlot {
  std::string name;                  // the device ("cuda:0"): the title's parenthesis, the selector
  std::vector<std::string> headers;  // lines under the title ("Max memory allocated: ...")
  std::string note;                  // a smaller line under them (what the plot leaves out)
  std::vector<MemorySeries> series;  // drawn bottom to top; a series that is 0 throughout is not
  // Per row, ascending: its time from the plot's origin (>= 0, or entry numbers when !timed), and
  // the series' bytes from that time to the next row's (row-major, series.size() per row).
  std::vector<int64_t> times_ns;
  std::vector<int64_t> values;
  bool timed = true;  // false: the x axis counts entries ("Entry"), not time
  bool has_peak = false;
  int64_t peak_ns = 0;
  int64_t peak_bytes = 0;
  std::string peak_label;  // what the marker names after "peak SIZE at TIME: "
  std::vector<MemoryMarker> markers;

  size_t rows() const { return times_ns.size(); }
  int64_t value(size_t row, size_t k) const { return values[row * series.size() + k]; }
};

// The page; `title` (the input's file name) heads each plot and names the page.
std::string FormatMemoryPage(const std::string& title, const std::vector<MemoryPlot>& plots);

}  // namespace profana::report
