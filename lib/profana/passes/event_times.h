// EventTimes: the times PyTorch's FunctionEvent properties give each event (cpu_time_total,
// self_cpu_time_total, cuda_time_total, self_cuda_time_total, self_*_memory_usage), both exact
// and as PyTorch computes them: float microseconds relative to the profiler start, children summed
// in order. Tables print and sort the floats, and export_stacks truncates them, so profana
// computes them the same way.
//
// An event's times are worked out when asked for, from its own interval and its children's; only
// the CUDA totals, which sum whole subtrees, are needed ahead: a native file's index stores them,
// a list built from events carries them (BuildFunctionEvents makes them beside its memory
// bytes), otherwise one sweep from the last event to the first computes them (children follow
// their parents). Passes that visit each event once (key averages, stacks) so never hold a column
// per time.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/base/sparse_rows.h"
#include "profana/passes/function_events.h"

namespace profana::passes {

struct EventTime {
  // Exact: nanoseconds and bytes.
  int64_t cpu_total_ns = 0;  // end - start for CPU events, 0 for device events
  int64_t self_cpu_ns = 0;
  int64_t cuda_total_ns = 0;  // own kernels + children's; the duration of a device event
  int64_t self_cuda_ns = 0;
  int64_t self_cpu_memory = 0;  // own bytes minus the children's (wrapping, as damaged counts may)
  int64_t self_cuda_memory = 0;
  // PyTorch's floats, in microseconds.
  double cpu_total_us = 0;
  double self_cpu_us = 0;
  double cuda_total_us = 0;
  double self_cuda_us = 0;
};

// cuda_time_total of the CPU events that have device time under them (own kernels, device
// children, or children that have), exact and as PyTorch's float sum (kernels in order, then
// children in order). Every other CPU event's is 0, and a device event's is its duration.
// (CudaTotal and CudaTotals are in function_events.h: a list built from events carries them.)
CudaTotals ComputeCudaTotals(const Trace& trace, const FunctionEventList& events);

// A time as PyTorch holds it: float microseconds from the profiler's start (the list's origin).
inline double PyTorchUs(const FunctionEventList& e, int64_t ns) {
  return static_cast<double>(ns - e.origin_ns) / 1000.0;
}
// A device event's cuda_time_total: its duration, exact and as PyTorch's float.
inline CudaTotal DeviceEventTotal(const FunctionEventList& e, uint32_t i) {
  int64_t start = e.start_ns[i], end = e.end_ns[i];
  return {end - start, PyTorchUs(e, end) - PyTorchUs(e, start)};
}

class EventTimes {
 public:
  // Reads the list and the trace while it is used: keep both alive.
  EventTimes(const Trace& trace, const FunctionEventList& events);
  EventTimes(const EventTimes&) = delete;  // it points into its own computed totals
  EventTimes& operator=(const EventTimes&) = delete;
  EventTime operator[](uint32_t i) const {
    EventTime t;
    Walk<true>(i, &t);
    return t;
  }
  // The _ns and _memory fields alone, for passes that print no float.
  void Exact(uint32_t i, EventTime* t) const { Walk<false>(i, t); }
  // Exact's cpu_total_ns alone (0 on a device), without its walk of the children.
  int64_t CpuTotalNs(uint32_t i) const {
    return device_[i] == DeviceType::kCPU ? events_.end_ns[i] - events_.start_ns[i] : 0;
  }
  // cuda_time_total, exact and as PyTorch's float: the index's, else a device event's duration or
  // the computed total of a CPU event.
  int64_t CudaTotalNs(uint32_t i) const {
    if (cuda_ns_) return cuda_ns_[i];
    return device_[i] != DeviceType::kCPU ? DeviceEventTotal(events_, i).ns : (*totals_)[i].ns;
  }
  double CudaTotalUs(uint32_t i) const {
    if (cuda_us_) return cuda_us_[i];
    return device_[i] != DeviceType::kCPU ? DeviceEventTotal(events_, i).us : (*totals_)[i].us;
  }

 private:
  double Us(int64_t ns) const { return PyTorchUs(events_, ns); }
  // The event's times from its interval and one walk of its children (each sum adds them in
  // order); the float fields too with kFloats.
  template <bool kFloats>
  void Walk(uint32_t i, EventTime* t) const;

  const FunctionEventList& events_;
  // The columns read for every event, as plain pointers.
  const DeviceType* device_;
  const uint32_t* child_begin_;
  const FnEventId* child_index_;
  bool memory_;  // the list has bytes (else all are 0)
  // The CUDA totals: the list's (from an index, or made when it was built), or computed here.
  CudaTotals computed_;
  const CudaTotals* totals_ = &computed_;
  const int64_t* cuda_ns_ = nullptr;
  const double* cuda_us_ = nullptr;
};

// Inline: key averages calls this millions of times, and only adds the fields up.
template <bool kFloats>
inline void EventTimes::Walk(uint32_t i, EventTime* t) const {
  const FunctionEventList& e = events_;
  int64_t start = e.start_ns[i], end = e.end_ns[i];
  double elapsed = kFloats ? Us(end) - Us(start) : 0;
  if (device_[i] != DeviceType::kCPU) {
    t->cuda_total_ns = t->self_cuda_ns = end - start;
    if (kFloats) t->cuda_total_us = t->self_cuda_us = elapsed;
    return;
  }
  // Wrapping: byte counts may be damaged, and an index's CUDA totals forged.
  uint64_t children_cpu_ns = 0, children_cuda_ns = 0, children_cpu_mem = 0, children_cuda_mem = 0;
  double children_cpu_us = 0, children_cuda_us = 0;
  for (uint32_t k = child_begin_[i]; k < child_begin_[i + 1]; ++k) {
    uint32_t c = child_index_[k].value;
    // A device event's CPU total is 0.
    if (device_[c] == DeviceType::kCPU) {
      int64_t child_start = e.start_ns[c], child_end = e.end_ns[c];
      children_cpu_ns += static_cast<uint64_t>(child_end - child_start);
      if (kFloats) children_cpu_us += Us(child_end) - Us(child_start);
    }
    children_cuda_ns += static_cast<uint64_t>(CudaTotalNs(c));
    if (kFloats) children_cuda_us += CudaTotalUs(c);
    if (memory_) {
      children_cpu_mem += static_cast<uint64_t>(e.CpuMemory(c));
      children_cuda_mem += static_cast<uint64_t>(e.CudaMemory(c));
    }
  }
  auto minus = [](int64_t a, uint64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) - b);
  };
  t->cpu_total_ns = end - start;
  if (kFloats) t->cpu_total_us = elapsed;
  if (e.IsAsync(i)) return;  // PyTorch: no self time, no device time, no self memory
  t->self_cpu_ns = minus(t->cpu_total_ns, children_cpu_ns);
  t->cuda_total_ns = CudaTotalNs(i);
  t->self_cuda_ns = minus(t->cuda_total_ns, children_cuda_ns);  // the event's own kernels
  if (kFloats) {
    t->self_cpu_us = elapsed - children_cpu_us;
    t->cuda_total_us = CudaTotalUs(i);
    t->self_cuda_us = t->cuda_total_us - children_cuda_us;
  }
  if (memory_) {
    t->self_cpu_memory = minus(e.CpuMemory(i), children_cpu_mem);
    t->self_cuda_memory = minus(e.CudaMemory(i), children_cuda_mem);
  }
}

}  // namespace profana::passes
