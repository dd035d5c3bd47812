// EventTimes: the times PyTorch's FunctionEvent properties give each event (cpu_time_total,
// self_cpu_time_total, cuda_time_total, self_cuda_time_total, self_*_memory_usage), both exact
// and as PyTorch computes them: float microseconds relative to the profiler start, children summed
// in order. Tables print and sort the floats, and export_stacks truncates them, so profana
// computes them the same way.
//
// An event's times are worked out when asked for, from its own interval and its children's; only
// the CUDA totals, which sum whole subtrees, are needed ahead: a native file's index stores them,
// otherwise one sweep from the last event to the first computes them (children follow their
// parents). Passes that visit each event once (key averages, stacks) so never hold a column per time.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/passes/function_events.h"

namespace profana::passes {

struct EventTime {
  // Exact: nanoseconds and bytes.
  int64_t cpu_total_ns = 0;   // end - start for CPU events, 0 for device events
  int64_t self_cpu_ns = 0;
  int64_t cuda_total_ns = 0;  // own kernels + children's; the duration of a device event
  int64_t self_cuda_ns = 0;
  int64_t self_cpu_memory = 0;   // own bytes minus the children's (wrapping, as damaged counts may)
  int64_t self_cuda_memory = 0;
  // PyTorch's floats, in microseconds.
  double cpu_total_us = 0;
  double self_cpu_us = 0;
  double cuda_total_us = 0;
  double self_cuda_us = 0;
};

// cuda_time_total of every event, exact and as PyTorch's float sum (kernels in order, then children
// in order), for the index; both empty when no event can have one (no kernels, no device events).
struct CudaTotals {
  std::vector<int64_t> ns;
  std::vector<double> us;
};
CudaTotals ComputeCudaTotals(const Trace& trace, const FunctionEventList& events);

class EventTimes {
 public:
  // Reads the list and the trace while it is used: keep both alive.
  EventTimes(const Trace& trace, const FunctionEventList& events);
  EventTime operator[](uint32_t i) const;

 private:
  double Us(int64_t ns) const { return static_cast<double>(ns - events_.origin_ns) / 1000.0; }

  const FunctionEventList& events_;
  // The columns read for every event, as plain pointers.
  const DeviceType* device_;
  const uint32_t *child_begin_, *child_index_;
  const int64_t *cpu_memory_, *cuda_memory_;
  // The CUDA totals: the list's (from an index), or computed here; null when all are 0.
  CudaTotals computed_;
  const int64_t* cuda_ns_ = nullptr;
  const double* cuda_us_ = nullptr;
};

}  // namespace profana::passes
