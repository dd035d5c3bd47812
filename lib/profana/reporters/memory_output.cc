#include "profana/reporters/memory_output.h"

#include "profana/reporters/memory_html.h"

namespace profana::report {

unsigned MemoryViewParts(OutputFormat format) {
  switch (format) {
    case OutputFormat::kText:
      return passes::kMemoryReport | passes::kMemoryOps;
    case OutputFormat::kCsv:
      return passes::kMemoryTimeline;
    default:
      return passes::kMemoryReport | passes::kMemoryTimeline;
  }
}

std::string FormatMemoryAs(OutputFormat format, const Trace& trace,
                           const passes::FunctionEventList& events, const passes::MemoryTimeline& t,
                           const std::vector<passes::MemoryDeviceView>& views,
                           const MemoryReportContext& context) {
  switch (format) {
    case OutputFormat::kText:
      return FormatMemoryText(trace, events, t, views, context);
    case OutputFormat::kJson:
      return FormatMemoryJson(trace, events, t, views, context);
    case OutputFormat::kCsv:
      return FormatTimelineCsv(t, views);
    default: {
      const std::string& file = context.input;
      std::string title = file == "-" ? "<stdin>" : file.substr(file.find_last_of('/') + 1);
      return FormatMemoryHtml(trace, events, t, views.front(), {title, context.origin_ns});
    }
  }
}

std::string FormatByOpAs(OutputFormat format, const Trace& trace,
                         const std::vector<passes::MemoryOpRow>& rows, const std::string& input,
                         const std::string& device) {
  if (format == OutputFormat::kJson) return FormatByOpJson(trace, rows, input, device);
  if (format == OutputFormat::kCsv) return FormatByOpCsv(trace, rows);
  return FormatByOpText(trace, rows, device);
}

}  // namespace profana::report
