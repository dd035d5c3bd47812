#include "profana/passes/event_times.h"

#include <algorithm>

namespace profana::passes {

CudaTotals ComputeCudaTotals(const Trace& trace, const FunctionEventList& e) {
  CudaTotals out;
  size_t m = e.size();
  const DeviceType* device = e.device_type.data();
  bool device_events = std::any_of(device, device + m, [](DeviceType d) { return d != DeviceType::kCPU; });
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
    int64_t kernel_ns = 0, children_ns = 0;
    double kernel_us = 0, children_us = 0;
    for (uint32_t k = e.kernel_begin[r]; k < e.kernel_begin[r + 1]; ++k) {
      uint32_t x = e.kernel_index[k];
      kernel_ns += kernel_end[x] - kernel_start[x];
      kernel_us += us(kernel_end[x]) - us(kernel_start[x]);
    }
    for (uint32_t k = e.child_begin[r]; k < e.child_begin[r + 1]; ++k) {
      uint32_t c = e.child_index[k];
      children_ns += out.ns[c];
      children_us += out.us[c];
    }
    out.ns[r] = kernel_ns + children_ns;
    out.us[r] = kernel_us + children_us;
  }
  return out;
}

EventTimes::EventTimes(const Trace& trace, const FunctionEventList& e)
    : events_(e),
      device_(e.device_type.data()),
      child_begin_(e.child_begin.data()),
      child_index_(e.child_index.data()),
      cpu_memory_(e.cpu_memory.data()),
      cuda_memory_(e.cuda_memory.data()) {
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

EventTime EventTimes::operator[](uint32_t i) const {
  const FunctionEventList& e = events_;
  EventTime t;
  int64_t start = e.start_ns[i], end = e.end_ns[i];
  double elapsed = Us(end) - Us(start);
  if (device_[i] != DeviceType::kCPU) {
    t.cuda_total_ns = t.self_cuda_ns = end - start;
    t.cuda_total_us = t.self_cuda_us = elapsed;
    return t;
  }
  int64_t children_cpu_ns = 0;
  double children_cpu_us = 0, children_cuda_us = 0;
  // Wrapping: byte counts may be damaged, and an index's CUDA totals forged.
  uint64_t children_cuda_ns = 0, children_cpu_mem = 0, children_cuda_mem = 0;
  for (uint32_t k = child_begin_[i]; k < child_begin_[i + 1]; ++k) {
    uint32_t c = child_index_[k];
    if (device_[c] == DeviceType::kCPU) {  // a device event's CPU total is 0
      int64_t c_start = e.start_ns[c], c_end = e.end_ns[c];
      children_cpu_ns += c_end - c_start;
      children_cpu_us += Us(c_end) - Us(c_start);
    }
    if (cuda_ns_) {
      children_cuda_ns += static_cast<uint64_t>(cuda_ns_[c]);
      children_cuda_us += cuda_us_[c];
    }
    children_cpu_mem += static_cast<uint64_t>(cpu_memory_[c]);
    children_cuda_mem += static_cast<uint64_t>(cuda_memory_[c]);
  }
  t.cpu_total_ns = end - start;
  t.self_cpu_ns = t.cpu_total_ns - children_cpu_ns;
  t.cuda_total_ns = cuda_ns_ ? cuda_ns_[i] : 0;
  // The event's own kernels: its total less its children's.
  t.self_cuda_ns = static_cast<int64_t>(static_cast<uint64_t>(t.cuda_total_ns) - children_cuda_ns);
  t.self_cpu_memory = static_cast<int64_t>(static_cast<uint64_t>(cpu_memory_[i]) - children_cpu_mem);
  t.self_cuda_memory = static_cast<int64_t>(static_cast<uint64_t>(cuda_memory_[i]) - children_cuda_mem);
  t.cpu_total_us = elapsed;
  t.self_cpu_us = elapsed - children_cpu_us;
  t.cuda_total_us = cuda_us_ ? cuda_us_[i] : 0.0;
  t.self_cuda_us = t.cuda_total_us - children_cuda_us;
  return t;
}

}  // namespace profana::passes
