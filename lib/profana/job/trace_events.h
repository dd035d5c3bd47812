// One loaded trace's function events for a command: BuildFunctionEvents under --link, their sums
// checked, and a note when kernels were credited to the ops enclosing their launches although
// the trace writes External ids (its kernel-op links are missing, not unrecorded by design).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/job/load_input.h"
#include "profana/model/function_event_index.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"

namespace profana::job {

// BuildFunctionEvents(trace, index, link, counts) on the trace read from `path`. Under --link
// auto, a trace that writes External ids but links no kernel to an op gets a warning note (the
// tables keep PyTorch's layout). An error naming the input when the events' sums would not fit
// (passes/event_sums.h).
Result<passes::FunctionEventList> BuildTraceEvents(const Trace& trace,
                                                   const std::optional<FunctionEventIndex>& index,
                                                   const std::string& path, passes::LinkRule link,
                                                   std::vector<LoadNote>* notes,
                                                   bool counts = false);

// Whether the trace writes External ids at all: a trace that writes them but links no kernel
// to an op is worth a note (--link auto then credits enclosing ops).
bool TraceWritesExternalIds(const Trace& trace);

// Whether `events` credited launches by enclosure in a trace that writes External ids but links
// none of them: what the --link auto note is about.
bool CreditedByEnclosureOnly(const Trace& trace, const passes::FunctionEventList& events);

}  // namespace profana::job
