// The rules about matmuls and convolutions off the Tensor Cores (no-tensor-cores, fp32-matmul),
// from what kernel names say (passes/efficiency/tensor_cores.h). docs/advise.md defines them.
#include <string_view>

#include "fmt/format.h"
#include "profana/job/advice/advice_rules.h"
#include "profana/model/event_roles.h"
#include "profana/passes/efficiency/tensor_cores.h"

namespace profana::job::advice {
namespace {

// Kernels launched (or starting, without a launch) inside steps, of the matmul kind `want`: their
// count, time, contributors and steps go into the finding; returns their time, and in *kernel_ns
// the time of every kernel inside steps.
int64_t MatmulKernels(const AdviceContext& c, passes::MatmulKernel want, Finding* f,
                      int64_t* kernel_ns) {
  const Trace& t = *c.trace;
  const EventTable& ev = t.events;
  std::vector<int8_t> kind(t.strings.size(), -1);  // string id -> MatmulKernel, -1 not looked at
  int64_t ns = 0;
  *kernel_ns = 0;
  Items items;
  std::vector<int64_t> starts;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (ev.kind[e] != ActivityKind::kKernel || !LaunchedInSteps(c, e)) continue;
    int64_t d = ev.end_ns[e] - ev.start_ns[e];
    *kernel_ns += d;
    uint32_t name = ev.trace_name[e].value;
    if (kind[name] < 0)
      kind[name] = static_cast<int8_t>(passes::MatmulKernelOf(t.str(ev.trace_name[e])));
    if (kind[name] != static_cast<int8_t>(want)) continue;
    ++f->count;
    ns += d;
    items.Add(t.str(ev.trace_name[e]), d);
    starts.push_back(ev.start_ns[e]);
  }
  f->steps = StepsOf(c, starts);
  f->items = items.Top(c.options.max_items);
  return ns;
}

// Both rules estimate half the kernels' time: Tensor Cores run a matmul's arithmetic at 8x
// (A100: TF32 156 against FP32 19.5 TFLOP/s) to 16x (bf16) the vector units' rate, and the
// memory traffic, which they do not speed up, bounds small and thin matmuls. `what` says which
// kernels ran how.
bool OffTensorCores(const AdviceContext& c, passes::MatmulKernel want, std::string_view what,
                    Finding* f) {
  int64_t all = 0;
  int64_t ns = MatmulKernels(c, want, f, &all);
  if (f->count == 0 || Share(ns, all) < c.options.min_share) return false;
  f->raw_saving_ns = ns / 2;
  f->evidence = fmt::format("{} {}: {} ({:.1f}% of kernel time)", f->count, what, TimeText(ns),
                            100 * Share(ns, all));
  return true;
}

}  // namespace

bool Fp32Matmul(const AdviceContext& c, Finding* f) {
  return OffTensorCores(c, passes::MatmulKernel::kFp32,
                        "fp32 matmul and convolution kernels ran on the FFMA path, not on Tensor "
                        "Cores",
                        f);
}

bool NoTensorCores(const AdviceContext& c, Finding* f) {
  return OffTensorCores(c, passes::MatmulKernel::kOther,
                        "matmul and convolution kernels (not fp32: fp32-matmul counts those) ran "
                        "without Tensor Cores",
                        f);
}

}  // namespace profana::job::advice
