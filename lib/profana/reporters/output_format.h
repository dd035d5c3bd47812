// The output formats of --format, parsed once into an enum that commands and reporters share.
// Each command accepts a few of them (AddCommonOptions lists which); reporters switch on it.
#pragma once

#include <string_view>

#include "profana/base/status.h"

namespace profana::report {

enum class OutputFormat {
  kText,      // aligned text for a terminal
  kJson,      // a "profana.<command>/<major>" document (docs/json.md)
  kCsv,       // one header line, then rows
  kMarkdown,  // a pull request or CI job summary (diff)
  kTimeline,  // export_memory_timeline's [times, sizes] (memory)
  kRaw,       // export_memory_timeline_raw's tuples (memory)
  kHtml,      // a self-contained page (memory)
};

// "text", "json", ...: the name --format takes.
std::string_view OutputFormatName(OutputFormat format);
// The format a name stands for; an unknown name is kInvalidArgument listing them all (a command
// that takes a few checks its own list first).
Result<OutputFormat> ParseOutputFormat(std::string_view name);

}  // namespace profana::report
