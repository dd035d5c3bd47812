#include "profana/reporters/memory_output.h"

#include "fmt/format.h"
#include "profana/passes/memory/timeline_clock.h"
#include "profana/reporters/memory_html.h"

namespace profana::report {

std::string PageTitle(const std::string& file) {
  return file == "-" ? "<stdin>" : file.substr(file.find_last_of('/') + 1);
}

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
      std::string title = PageTitle(context.input);
      return FormatMemoryHtml(trace.strings, events, t, views,
                              {title, context.origin_ns, passes::EpochShiftNs(trace)});
    }
  }
}

std::string FormatNoMemory(OutputFormat format, const std::string& title) {
  if (format == OutputFormat::kTimeline) return FormatTimelineJson({});
  if (format == OutputFormat::kRaw) return FormatRawJson({});
  std::string escaped;
  for (char c : title)
    escaped += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return fmt::format(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{0}</title></head>\n"
      "<body><h1>{0}</h1>\n<p>{1}</p>\n</body></html>\n",
      escaped, kNoMemoryNote);
}

std::string FormatByOpAs(OutputFormat format, const StringPool& strings,
                         const std::vector<passes::MemoryOpRow>& rows, const std::string& input,
                         const std::string& device) {
  if (format == OutputFormat::kJson) return FormatByOpJson(strings, rows, input, device);
  if (format == OutputFormat::kCsv) return FormatByOpCsv(strings, rows);
  return FormatByOpText(strings, rows, device);
}

}  // namespace profana::report
