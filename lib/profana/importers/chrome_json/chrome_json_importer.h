// Chrome-trace JSON importer (simdjson On-Demand, one pass, each event's fields read once).
// Reads the Kineto object form {"traceEvents": [...], ...metadata} and the bare array that
// EventList.export_chrome_trace writes. Knows the format and nothing else: it calls TraceBuilder.
#pragma once

#include <string_view>

#include "profana/base/input_buffer.h"
#include "profana/base/status.h"
#include "profana/model/trace.h"

namespace profana::json {

bool SniffChromeJson(std::string_view bytes);
Result<Trace> ImportChromeJson(const InputBuffer& input);

}  // namespace profana::json
