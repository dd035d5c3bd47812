// Formats a MemoryTimeline: the text report, the profana.memory/1 JSON document, PyTorch's
// export_memory_timeline shapes ([times, sizes] and raw tuples), CSV, and the per-op table.
// Formatting only: each device's details arrive worked out (passes/memory_views).
// The timeline's reports take the Trace: they read its memory records, stacks and metadata besides
// its names. The per-op table takes only the string pool its names are in.
#pragma once

#include <string>
#include <vector>

#include "profana/base/row_limit.h"
#include "profana/passes/memory_device_report.h"
#include "profana/passes/memory_timeline.h"
#include "profana/passes/memory_views.h"

namespace profana::report {

// What a trace without [memory] records says, in every format: the text report's last line,
// and (without its full stop) the warning the other formats print on standard error.
inline constexpr const char* kNoMemoryNote =
    "The trace has no [memory] events: record it with "
    "torch.profiler.profile(profile_memory=True).";
struct MemoryReportContext {
  std::string input;
  int64_t origin_ns = 0;  // times print relative to this (the trace's start)
  int top = static_cast<int>(DefaultRowLimit(RowKind::kRanked));  // rows per grouped list in text
};

// One section per view, in order. Text needs each view's report and ops; JSON its report and
// timeline.
std::string FormatMemoryText(const Trace& trace, const passes::FunctionEventList& events,
                             const passes::MemoryTimeline& t,
                             const std::vector<passes::MemoryDeviceView>& views,
                             const MemoryReportContext& c);
std::string FormatMemoryJson(const Trace& trace, const passes::FunctionEventList& events,
                             const passes::MemoryTimeline& t,
                             const std::vector<passes::MemoryDeviceView>& views,
                             const MemoryReportContext& c);
// export_memory_timeline(path.json): [times, sizes] of one device, compact as json.dump writes it.
std::string FormatTimelineJson(const passes::CoalescedTimeline& timeline);
// export_memory_timeline_raw: [[time, action, bytes, category], ...] of one device.
std::string FormatRawJson(const std::vector<passes::RawMemoryEvent>& raw);
// One row per distinct time of each view's timeline: device, time_us, one column per category,
// total.
std::string FormatTimelineCsv(const passes::MemoryTimeline& t,
                              const std::vector<passes::MemoryDeviceView>& views);

// The per-op table names its ops from `strings`, the pool of the trace the rows came from.
std::string FormatByOpText(const StringPool& strings, const std::vector<passes::MemoryOpRow>& rows,
                           const std::string& device);
std::string FormatByOpCsv(const StringPool& strings, const std::vector<passes::MemoryOpRow>& rows);
std::string FormatByOpJson(const StringPool& strings, const std::vector<passes::MemoryOpRow>& rows,
                           const std::string& input, const std::string& device);

}  // namespace profana::report
