// The reports of `profana info`: what a trace file holds (format, sizes, counts by kind, threads,
// span, devices, the op tree's counts) and every diagnostic with its count and first samples; as
// text or JSON (schema "profana.info/1", docs/json.md). Formatting only: the counts come from
// passes/trace_summary and passes/function_events.
#pragma once

#include <string>

#include "profana/model/trace.h"
#include "profana/passes/function_events.h"
#include "profana/passes/trace_summary.h"

namespace profana::report {

// name: the input as messages name it ("<stdin>" for standard input).
std::string FormatInfoText(const std::string& name, const Trace& trace,
                           const passes::TraceSummary& summary,
                           const passes::FunctionEventList& events);
std::string FormatInfoJson(const std::string& name, const Trace& trace,
                           const passes::TraceSummary& summary,
                           const passes::FunctionEventList& events);

}  // namespace profana::report
