// The reports of `profana info`: what a trace file holds (format, sizes, counts by kind, threads,
// span, devices, the op tree's counts, one line per CUDA/HIP graph replay) and every diagnostic
// with its count and first samples; as text or JSON (schema "profana.info/1", docs/json.md).
// Formatting only: the counts come from passes/event_counts and passes/function_events.
// They take the Trace: they report the file itself (its metadata, threads, devices and events).
#pragma once

#include <string>

#include "profana/model/trace.h"
#include "profana/passes/event_counts.h"
#include "profana/passes/function_events.h"
#include "profana/passes/graph_launches.h"
#include "profana/passes/stacks.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

// What info says of the trace's Python stacks: where they come from, and how many distinct ones
// the function events have (passes/stacks.h).
struct InfoStacks {
  passes::PythonStackSources sources;
  size_t distinct = 0;
};

// name: the input as messages name it ("<stdin>" for standard input).
std::string FormatInfoText(const std::string& name, const Trace& trace,
                           const passes::EventCounts& summary,
                           const passes::FunctionEventList& events,
                           const passes::GraphLaunchSummary& graphs, const InfoStacks& stacks);
std::string FormatInfoJson(const std::string& name, const Trace& trace,
                           const passes::EventCounts& summary,
                           const passes::FunctionEventList& events,
                           const passes::GraphLaunchSummary& graphs, const InfoStacks& stacks);
// The report in `format` (text or json): the one choice of printer.
std::string FormatInfoAs(OutputFormat format, const std::string& name, const Trace& trace,
                         const passes::EventCounts& summary,
                         const passes::FunctionEventList& events,
                         const passes::GraphLaunchSummary& graphs, const InfoStacks& stacks);

}  // namespace profana::report
