#include "profana/passes/event_times.h"

#include <algorithm>

#include "profana/base/int_sum.h"

namespace profana::passes {

CudaTotals ComputeCudaTotals(const Trace& trace, const FunctionEventList& e) {
  size_t m = e.size();
  const DeviceType* device = e.device_type.data();
  bool device_events =
      std::any_of(device, device + m, [](DeviceType d) { return d != DeviceType::kCPU; });
  if (e.kernel_index.empty() && !device_events) return {};  // every CUDA total is 0
  const int64_t* kernel_start = trace.events.start_ns.data();
  const int64_t* kernel_end = trace.events.end_ns.data();
  // Children follow their parents, so a backward sweep sees every child before its parent. The
  // first marks the CPU events with device time under them; the others' totals are 0.
  CudaTotals out(m);
  for (size_t r = m; r-- > 0;) {
    if (device[r] != DeviceType::kCPU) continue;
    bool under = e.kernel_begin[r] < e.kernel_begin[r + 1];
    for (uint32_t k = e.child_begin[r]; k < e.child_begin[r + 1] && !under; ++k) {
      uint32_t c = e.child_index[k].value;
      under = device[c] != DeviceType::kCPU || out.Marked(c);
    }
    if (under) out.Mark(r);
  }
  out.Seal();
  for (size_t r = m; r-- > 0;) {
    if (device[r] != DeviceType::kCPU || !out.Marked(r)) continue;
    // Wrapping, as EventTimes sums children: a damaged trace's durations may pass INT64_MAX.
    int64_t kernel_ns = 0, children_ns = 0;
    double kernel_us = 0, children_us = 0;
    for (uint32_t k = e.kernel_begin[r]; k < e.kernel_begin[r + 1]; ++k) {
      uint32_t x = e.kernel_index[k].value;
      kernel_ns = WrapAdd(kernel_ns, kernel_end[x] - kernel_start[x]);
      kernel_us += PyTorchUs(e, kernel_end[x]) - PyTorchUs(e, kernel_start[x]);
    }
    for (uint32_t k = e.child_begin[r]; k < e.child_begin[r + 1]; ++k) {
      uint32_t c = e.child_index[k].value;
      CudaTotal child = device[c] != DeviceType::kCPU ? DeviceEventTotal(e, c) : out[c];
      children_ns = WrapAdd(children_ns, child.ns);
      children_us += child.us;
    }
    out.At(r) = {WrapAdd(kernel_ns, children_ns), kernel_us + children_us};
  }
  return out;
}

EventTimes::EventTimes(const Trace& trace, const FunctionEventList& e)
    : events_(e),
      device_(e.device_type.data()),
      child_begin_(e.child_begin.data()),
      child_index_(e.child_index.data()),
      memory_(e.HasMemoryBytes()) {
  if (e.cuda_total_ns.size() == e.size() && e.cuda_total_us.size() == e.size()) {
    cuda_ns_ = e.cuda_total_ns.data();
    cuda_us_ = e.cuda_total_us.data();
    return;
  }
  if (e.cuda_totals_made) {
    totals_ = &e.cuda_totals;
    return;
  }
  computed_ = ComputeCudaTotals(trace, e);
}

}  // namespace profana::passes
