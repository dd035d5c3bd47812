#include "profana/passes/event_times.h"

#include <algorithm>

#include "profana/base/int_sum.h"

namespace profana::passes {

CudaTotals ComputeCudaTotals(const Trace& trace, const FunctionEventList& e) {
  CudaTotals out;
  size_t m = e.size();
  const DeviceType* device = e.device_type.data();
  bool device_events =
      std::any_of(device, device + m, [](DeviceType d) { return d != DeviceType::kCPU; });
  if (e.kernel_index.empty() && !device_events) return out;  // every CUDA total is 0
  auto us = [&](int64_t ns) { return static_cast<double>(ns - e.origin_ns) / 1000.0; };
  const int64_t* kernel_start = trace.events.start_ns.data();
  const int64_t* kernel_end = trace.events.end_ns.data();
  out.ns.resize(m);
  out.us.resize(m);
  // Children follow their parents, so one backward sweep sees every child before its parent.
  for (size_t r = m; r-- > 0;) {
    int64_t start = e.start_ns[r], end = e.end_ns[r];
    if (device[r] != DeviceType::kCPU) {
      out.ns[r] = end - start;
      out.us[r] = us(end) - us(start);
      continue;
    }
    // Wrapping, as EventTimes sums children: a damaged trace's durations may pass INT64_MAX.
    int64_t kernel_ns = 0, children_ns = 0;
    double kernel_us = 0, children_us = 0;
    for (uint32_t k = e.kernel_begin[r]; k < e.kernel_begin[r + 1]; ++k) {
      uint32_t x = e.kernel_index[k].value;
      kernel_ns = WrapAdd(kernel_ns, kernel_end[x] - kernel_start[x]);
      kernel_us += us(kernel_end[x]) - us(kernel_start[x]);
    }
    for (uint32_t k = e.child_begin[r]; k < e.child_begin[r + 1]; ++k) {
      uint32_t c = e.child_index[k].value;
      children_ns = WrapAdd(children_ns, out.ns[c]);
      children_us += out.us[c];
    }
    out.ns[r] = WrapAdd(kernel_ns, children_ns);
    out.us[r] = kernel_us + children_us;
  }
  return out;
}

EventTimes::EventTimes(const Trace& trace, const FunctionEventList& e)
    : events_(e),
      device_(e.device_type.data()),
      child_begin_(e.child_begin.data()),
      child_index_(e.child_index.data()),
      cpu_memory_(e.cpu_memory.empty() ? nullptr : e.cpu_memory.data()),
      cuda_memory_(e.cuda_memory.empty() ? nullptr : e.cuda_memory.data()) {
  if (e.cuda_total_ns.size() == e.size() && e.cuda_total_us.size() == e.size()) {
    cuda_ns_ = e.cuda_total_ns.data();
    cuda_us_ = e.cuda_total_us.data();
    return;
  }
  computed_ = ComputeCudaTotals(trace, e);
  if (!computed_.ns.empty()) {
    cuda_ns_ = computed_.ns.data();
    cuda_us_ = computed_.us.data();
  }
}

}  // namespace profana::passes
