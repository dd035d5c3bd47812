// Why a filter kept nothing (or, for --device and --stream, no device activity), in words that
// say what the trace does have: the threads when --thread names none of them, the streams and
// devices with device activity for --stream and --device, how many names there are when --name
// matches none, the span of the trace for --window. FilterTrace returns it as its error, so no
// command prints an empty table for a selection that cannot match.
#pragma once

#include <string>
#include <vector>

#include "profana/model/trace.h"
#include "profana/passes/trace_filter.h"

namespace profana::passes {

// `trace` is the trace before filtering; `thread_ok` and `stream_ok` are the per-thread verdicts
// of --thread and --stream; `name_matched` says whether --name matched any event name.
std::string EmptySelectionMessage(const TraceFilter& filter, const Trace& trace,
                                  const std::vector<uint8_t>& thread_ok,
                                  const std::vector<uint8_t>& stream_ok, bool name_matched);

// True when --thread or --stream names none of the trace's tracks: the selection keeps nothing it
// asked for, even where device activity without a launch (kept whatever --thread says) remains.
bool SelectsNoTrack(const TraceFilter& filter, const std::vector<uint8_t>& thread_ok,
                    const std::vector<uint8_t>& stream_ok);

}  // namespace profana::passes
