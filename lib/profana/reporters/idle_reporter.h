// The reports of `profana idle`: GPU idle time per device and stream split into host wait,
// kernel wait and other, and the longest gaps with the op the CPU was in; as text, CSV and JSON
// (schema "profana.idle/1", docs/json.md). Formatting only: passes/gpu_streams computes it.
#pragma once

#include <string>

#include "profana/model/trace.h"
#include "profana/passes/function_events.h"
#include "profana/passes/gpu_streams.h"

namespace profana::report {

// gaps_asked: how many longest gaps were asked for (the heading says it). Without device
// activity: one line that says so instead of the table.
std::string FormatIdleText(const Trace& trace, const passes::FunctionEventList& events,
                           const passes::IdleBreakdown& breakdown, int gaps_asked);
std::string FormatIdleCsv(const Trace& trace, const passes::IdleBreakdown& breakdown);
std::string FormatIdleJson(const std::string& input, const Trace& trace,
                           const passes::FunctionEventList& events,
                           const passes::IdleBreakdown& breakdown);

}  // namespace profana::report
