#include "profana/passes/event_times.h"

#include <algorithm>

namespace profana::passes {

EventTimes::EventTimes(const Trace& trace, const FunctionEventList& e) : trace_(trace), events_(e) {
  size_t m = e.size();
  bool device_events = std::any_of(e.device_type.begin(), e.device_type.end(), [](DeviceType d) { return d != DeviceType::kCPU; });
  if (e.kernel_index.empty() && !device_events) return;  // every CUDA total is 0
  const EventTable& ev = trace.events;
  cuda_total_ns_.resize(m);
  cuda_total_us_.resize(m);
  // Children follow their parents, so one backward sweep sees every child before its parent.
  for (size_t r = m; r-- > 0;) {
    int64_t start = e.start_ns[r], end = e.end_ns[r];
    if (e.device_type[r] != DeviceType::kCPU) {
      cuda_total_ns_[r] = end - start;
      cuda_total_us_[r] = Us(end) - Us(start);
      continue;
    }
    int64_t kernel_ns = 0, children_ns = 0;
    double kernel_us = 0, children_us = 0;
    for (uint32_t k = e.kernel_begin[r]; k < e.kernel_begin[r + 1]; ++k) {
      uint32_t x = e.kernel_index[k];
      kernel_ns += ev.end_ns[x] - ev.start_ns[x];
      kernel_us += Us(ev.end_ns[x]) - Us(ev.start_ns[x]);
    }
    for (uint32_t k = e.child_begin[r]; k < e.child_begin[r + 1]; ++k) {
      uint32_t c = e.child_index[k];
      children_ns += cuda_total_ns_[c];
      children_us += cuda_total_us_[c];
    }
    cuda_total_ns_[r] = kernel_ns + children_ns;
    cuda_total_us_[r] = kernel_us + children_us;
  }
}

EventTime EventTimes::operator[](uint32_t i) const {
  const FunctionEventList& e = events_;
  EventTime t;
  int64_t start = e.start_ns[i], end = e.end_ns[i];
  double elapsed = Us(end) - Us(start);
  if (e.device_type[i] != DeviceType::kCPU) {
    t.cuda_total_ns = t.self_cuda_ns = end - start;
    t.cuda_total_us = t.self_cuda_us = elapsed;
    return t;
  }
  bool cuda = !cuda_total_ns_.empty();
  int64_t children_cpu_ns = 0, children_cuda_ns = 0;
  double children_cpu_us = 0, children_cuda_us = 0;
  uint64_t children_cpu_mem = 0, children_cuda_mem = 0;  // wrapping: byte counts may be damaged
  for (uint32_t k = e.child_begin[i]; k < e.child_begin[i + 1]; ++k) {
    uint32_t c = e.child_index[k];
    if (e.device_type[c] == DeviceType::kCPU) {  // a device event's CPU total is 0
      int64_t c_start = e.start_ns[c], c_end = e.end_ns[c];
      children_cpu_ns += c_end - c_start;
      children_cpu_us += Us(c_end) - Us(c_start);
    }
    if (cuda) {
      children_cuda_ns += cuda_total_ns_[c];
      children_cuda_us += cuda_total_us_[c];
    }
    children_cpu_mem += static_cast<uint64_t>(e.cpu_memory[c]);
    children_cuda_mem += static_cast<uint64_t>(e.cuda_memory[c]);
  }
  int64_t kernel_ns = 0;
  for (uint32_t k = e.kernel_begin[i]; k < e.kernel_begin[i + 1]; ++k) {
    uint32_t x = e.kernel_index[k];
    kernel_ns += trace_.events.end_ns[x] - trace_.events.start_ns[x];
  }
  t.cpu_total_ns = end - start;
  t.self_cpu_ns = t.cpu_total_ns - children_cpu_ns;
  t.cuda_total_ns = cuda ? cuda_total_ns_[i] : 0;
  t.self_cuda_ns = kernel_ns;
  t.self_cpu_memory = static_cast<int64_t>(static_cast<uint64_t>(e.cpu_memory[i]) - children_cpu_mem);
  t.self_cuda_memory = static_cast<int64_t>(static_cast<uint64_t>(e.cuda_memory[i]) - children_cuda_mem);
  t.cpu_total_us = elapsed;
  t.self_cpu_us = elapsed - children_cpu_us;
  t.cuda_total_us = cuda ? cuda_total_us_[i] : 0.0;
  t.self_cuda_us = t.cuda_total_us - children_cuda_us;
  return t;
}

}  // namespace profana::passes
