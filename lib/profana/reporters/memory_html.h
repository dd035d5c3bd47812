// A self-contained HTML page of one device's memory timeline: stacked areas by category (the
// reference's colours and order), the peak marked, the reference's title lines, axes with units,
// values under the pointer. Inline SVG drawn here, a few lines of script for the hover readout;
// no external scripts, fonts or styles.
#pragma once

#include <string>

#include "profana/passes/memory_timeline.h"
#include "profana/passes/memory_views.h"

namespace profana::report {

struct MemoryHtmlOptions {
  std::string title;      // the first line (the input file's name)
  int64_t origin_ns = 0;  // the x axis starts here
};

// The view's device, from its report and timeline.
std::string FormatMemoryHtml(const Trace& trace, const passes::FunctionEventList& events,
                             const passes::MemoryTimeline& t, const passes::MemoryDeviceView& view,
                             const MemoryHtmlOptions& options);

}  // namespace profana::report
