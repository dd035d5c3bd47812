// The second bound on one trace's sums (the first is model/trace_sums.h). An op's CUDA total holds
// the device time of everything under it, and a [memory] record counts toward every event around
// it, on any thread (PyTorch's cpu_memory_usage): one kernel or allocation is counted once per
// enclosing event. Key averages add those per-event values up by name (nested ops of one name
// count the same kernel twice), tables add the rows up, and self values subtract the children's.
// CheckEventSumsFit refuses a trace whose per-event CUDA totals, or CPU and CUDA memory, add up
// past kMaxTraceTotal: every sum of them, and any difference of two, then fits in int64_t.
#pragma once

#include <string>

#include "profana/base/status.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"

namespace profana::passes {

// Ok, or kMalformed naming `name` (the input), the sum that is too large and the event that
// holds most of it.
Status CheckEventSumsFit(const Trace& trace, const FunctionEventList& events,
                         const std::string& name);

}  // namespace profana::passes
