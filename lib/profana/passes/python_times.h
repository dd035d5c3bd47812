// The float microsecond values PyTorch's FunctionEvent properties (cpu_time_total,
// self_cpu_time_total, cuda_time_total, self_cuda_time_total) return for each event: times
// relative to the profiler start, as doubles, children summed in order. Tables print and sort
// these, and export_stacks truncates them, so profana computes them the same way.
#pragma once

#include <vector>

#include "profana/passes/function_events.h"

namespace profana::passes {

struct PythonTimes {
  std::vector<double> cpu_total, self_cpu, cuda_total, self_cuda;
};

PythonTimes ComputePythonTimes(const Trace& trace, const FunctionEventList& events);

}  // namespace profana::passes
