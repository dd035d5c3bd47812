// The members of a Kineto trace object other than "traceEvents": schema version, base time,
// distributed info, device properties. Informational, so wrong types are ignored, not reported.
#pragma once

#include <string_view>

#include "profana/importers/chrome_json/event_parser.h"
#include "profana/model/trace.h"

namespace profana::json {

simdjson::error_code ReadHeaderField(EventParser* parser, TraceMetadata* metadata,
                                     std::string_view key, simdjson::ondemand::value value);

}  // namespace profana::json
