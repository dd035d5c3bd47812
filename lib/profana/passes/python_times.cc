#include "profana/passes/python_times.h"

namespace profana::passes {

PythonTimes ComputePythonTimes(const Trace& trace, const FunctionEventList& e) {
  auto us = [&](int64_t ns) { return static_cast<double>(ns - e.origin_ns) / 1000.0; };
  size_t n = e.size();
  PythonTimes t;
  t.cpu_total.assign(n, 0.0);
  t.self_cpu.assign(n, 0.0);
  t.cuda_total.assign(n, 0.0);
  t.self_cuda.assign(n, 0.0);
  for (size_t r = n; r-- > 0;) {
    double elapsed = us(e.end_ns[r]) - us(e.start_ns[r]);
    if (e.device_type[r] != DeviceType::kCPU) {
      t.cuda_total[r] = t.self_cuda[r] = elapsed;
      continue;
    }
    double kernels = 0, children_cpu = 0, children_cuda = 0;
    for (uint32_t k = e.kernel_begin[r]; k < e.kernel_begin[r + 1]; ++k) {
      uint32_t ev = e.kernel_index[k];
      kernels += us(trace.events.end_ns[ev]) - us(trace.events.start_ns[ev]);
    }
    for (uint32_t k = e.child_begin[r]; k < e.child_begin[r + 1]; ++k) {
      children_cpu += t.cpu_total[e.child_index[k]];
      children_cuda += t.cuda_total[e.child_index[k]];
    }
    t.cpu_total[r] = elapsed;
    t.self_cpu[r] = elapsed - children_cpu;
    t.cuda_total[r] = kernels + children_cuda;
    t.self_cuda[r] = t.cuda_total[r] - children_cuda;
  }
  return t;
}

}  // namespace profana::passes
