// A self-contained HTML page of one device's memory timeline: stacked areas by category (the
// reference's colours and order), the peak marked, the reference's title lines, axes with units,
// values under the pointer. Inline SVG drawn here, a few lines of script for the hover readout;
// no external scripts, fonts or styles.
#pragma once

#include <string>
#include <vector>

#include "profana/passes/memory_timeline.h"
#include "profana/passes/memory_views.h"

namespace profana::report {

struct MemoryHtmlOptions {
  std::string title;      // the first line (the input file's name)
  int64_t origin_ns = 0;  // the x axis starts here
};

// The views' devices, from their reports and timelines: one plot each; with several, a device
// selector shows one at a time (the first view's at first).
std::string FormatMemoryHtml(const Trace& trace, const passes::FunctionEventList& events,
                             const passes::MemoryTimeline& t,
                             const std::vector<passes::MemoryDeviceView>& views,
                             const MemoryHtmlOptions& options);

}  // namespace profana::report
