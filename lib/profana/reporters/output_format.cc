#include "profana/reporters/output_format.h"

#include "profana/base/nearest_names.h"

namespace profana::report {
namespace {

constexpr OutputFormat kFormats[] = {
    OutputFormat::kText,     OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kMarkdown,
    OutputFormat::kTimeline, OutputFormat::kRaw,  OutputFormat::kHtml};

}  // namespace

std::string_view OutputFormatName(OutputFormat format) {
  switch (format) {
    case OutputFormat::kText:
      return "text";
    case OutputFormat::kJson:
      return "json";
    case OutputFormat::kCsv:
      return "csv";
    case OutputFormat::kMarkdown:
      return "markdown";
    case OutputFormat::kTimeline:
      return "timeline";
    case OutputFormat::kRaw:
      return "raw";
    case OutputFormat::kHtml:
      return "html";
  }
  return "text";
}

Result<OutputFormat> ParseOutputFormat(std::string_view name) {
  for (OutputFormat f : kFormats)
    if (OutputFormatName(f) == name) return f;
  std::vector<std::string> names;
  for (OutputFormat f : kFormats) names.emplace_back(OutputFormatName(f));
  return Status(ErrorCode::kInvalidArgument, UnknownNameMessage("format", name, names));
}

}  // namespace profana::report
