// Times the GPU analyses on a synthetic trace built in memory: 10M CPU events (1M steps of an op
// with 8 child ops and a kernel launch) and 1M kernels on 4 streams. The reference's nested loops
// would take hours here; profana's passes must take seconds. Usage: gpu_eval_bench [steps]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "profana/model/trace_builder.h"
#include "profana/passes/function_events.h"
#include "profana/passes/gpu_evaluation.h"
#include "profana/passes/gpu_streams.h"

using namespace profana;

int main(int argc, char** argv) {
  int64_t steps = argc > 1 ? std::atoll(argv[1]) : 1000000;
  auto now = [] { return std::chrono::steady_clock::now(); };
  auto secs = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  auto t0 = now();
  TraceBuilder b;
  ThreadId cpu = b.Thread(1, 1);
  StringId op = b.Intern("aten::linear"), child = b.Intern("aten::addmm"),
           launch = b.Intern("cudaLaunchKernel");
  StringId kernel = b.Intern("gemm_kernel"), cpu_op = b.Intern("cpu_op");
  ThreadId streams[4] = {b.Thread(0, 7), b.Thread(0, 8), b.Thread(0, 9), b.Thread(0, 10)};
  int64_t gpu_free[4] = {0, 0, 0, 0};
  for (int64_t s = 0; s < steps; ++s) {
    int64_t t = s * 100000;  // 100 us per step
    TraceBuilder::Event e;
    e.trace_name = op;
    e.category = cpu_op;
    e.thread = cpu;
    e.start_ns = t;
    e.end_ns = t + 90000;
    b.AddEvent(e);
    for (int c = 0; c < 8; ++c) {
      e.trace_name = child;
      e.start_ns = t + 1000 + c * 10000;
      e.end_ns = e.start_ns + 8000;
      b.AddEvent(e);
    }
    TraceBuilder::Event l;
    l.trace_name = launch;
    l.kind = ActivityKind::kRuntime;
    l.thread = cpu;
    l.start_ns = t + 85000;
    l.end_ns = t + 87000;
    l.correlation = s;
    b.AddEvent(l);
    int st = static_cast<int>(s % 4);
    TraceBuilder::Event k;
    k.trace_name = kernel;
    k.kind = ActivityKind::kKernel;
    k.thread = streams[st];
    k.device = 0;
    k.start_ns = std::max(t + 95000, gpu_free[st]);
    k.end_ns = k.start_ns + 150000 + (s % 7) * 20000;  // longer than a step: the queue builds up
    gpu_free[st] = k.end_ns;
    k.correlation = s;
    b.AddEvent(k);
  }
  Trace trace = std::move(b).Finish();
  auto t1 = now();
  passes::FunctionEventList events = passes::BuildFunctionEvents(trace);
  auto t2 = now();
  LaunchIndex launches(trace.events);
  passes::GpuEvaluation eval = passes::EvaluateGpu(trace, events, launches);
  auto t3 = now();
  passes::Ranking ranking = passes::RankEvents(trace, events, eval, 10);
  auto t4 = now();
  passes::IdleBreakdown idle = passes::ComputeIdleBreakdown(trace, events, launches, 30, 10);
  auto t5 = now();
  std::vector<passes::StreamQueue> queues = passes::ComputeStreamQueues(trace, launches);
  auto t6 = now();
  std::printf(
      "events=%zu kernels=%llu function_events=%zu queue_points=%zu candidates=%zu tracks=%zu "
      "streams=%zu\n",
      trace.events.size(), static_cast<unsigned long long>(eval.kernels), events.size(),
      eval.queue.size(), ranking.candidates, idle.tracks.size(), queues.size());
  std::printf(
      "build trace %.2f s | function events %.2f s | queue depth + idle %.2f s | ranking %.2f s | "
      "idle breakdown %.2f s | stream queues %.2f s | analyses total %.2f s\n",
      secs(t0, t1), secs(t1, t2), secs(t2, t3), secs(t3, t4), secs(t4, t5), secs(t5, t6),
      secs(t2, t6));
  return 0;
}
