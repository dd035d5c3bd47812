// Chrome-trace JSON importer (simdjson On-Demand, one pass, each event's fields read once).
// Reads the Kineto object form {"traceEvents": [...], ...metadata} and the bare array that
// EventList.export_chrome_trace writes. Knows the format and nothing else: it calls TraceBuilder.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "profana/base/input_buffer.h"
#include "profana/base/status.h"
#include "profana/importers/importer.h"
#include "profana/model/trace.h"

namespace profana::json {

bool SniffChromeJson(std::string_view bytes);
Result<Trace> ImportChromeJson(const InputBuffer& input);
// The importer row's path for files: JSON, plain or gzipped, streams through a bounded window on
// all cores (streaming_import.h). Anything unusual (damage, truncation, not JSON) answers no
// trace, and the whole-file import repairs or reports it.
Result<std::optional<Trace>> OpenChromeJson(InputFile& file, const LoadOptions& options);

}  // namespace profana::json
