// The memory timeline's page (memory_page.h) for a trace: per device, stacked areas by category in
// the reference's colours and order (torch.profiler._memory_profiler's _CATEGORY_TO_COLORS), the
// reference's title lines, the peak marked with its op, times from the trace's start.
#pragma once

#include <string>
#include <vector>

#include "profana/base/string_pool.h"
#include "profana/passes/memory_timeline.h"
#include "profana/passes/memory_views.h"

namespace profana::report {

struct MemoryHtmlOptions {
  std::string title;      // the first line (the input file's name)
  int64_t origin_ns = 0;  // the x axis's 0, on the trace's clock (the trace's start)
  // The timeline's clock (PyTorch's epoch) minus the trace's: passes::EpochShiftNs of the trace.
  int64_t epoch_shift_ns = 0;
};

// The views' devices, from their reports and timelines: one plot each; with several, a device
// selector shows one at a time (the first view's at first). An op is named from `strings`, the pool
// of the trace the events came from.
std::string FormatMemoryHtml(const StringPool& strings, const passes::FunctionEventList& events,
                             const passes::MemoryTimeline& t,
                             const std::vector<passes::MemoryDeviceView>& views,
                             const MemoryHtmlOptions& options);

}  // namespace profana::report
