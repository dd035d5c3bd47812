#include "profana/job/trace_analyses.h"

#include <algorithm>
#include <limits>

namespace profana::job {

TraceAnalyses AnalyseTrace(const Trace& trace, const passes::FunctionEventList& events) {
  TraceAnalyses a;
  AnalyseLaunchesAndSteps(trace, &a);
  AnalyseOwners(trace, events, &a);
  AnalyseTimeline(trace, events, &a);
  return a;
}

void AnalyseLaunchesAndSteps(const Trace& trace, TraceAnalyses* a) {
  a->launches = std::make_unique<LaunchIndex>(trace.events);
  a->steps = ComputeStepBreakdown(trace, StepDeviceUse::kSkip);
  // StepAt searches by time; step numbers rise with time in every trace seen, but need not.
  std::stable_sort(a->steps.begin(), a->steps.end(),
                   [](const StepRow& x, const StepRow& y) { return x.start_ns < y.start_ns; });
}

void AnalyseOwners(const Trace& trace, const passes::FunctionEventList& events, TraceAnalyses* a) {
  a->owners = passes::FindDeviceOwners(trace, events, *a->launches);
}

void AnalyseTimeline(const Trace& trace, const passes::FunctionEventList& events,
                     TraceAnalyses* a) {
  const LaunchIndex& launches = *a->launches;
  a->idle =
      passes::ComputeIdleBreakdown(trace, events, launches, passes::kHtaConsecutiveKernelDelayNs,
                                   std::numeric_limits<size_t>::max());
  a->queues = passes::ComputeStreamQueues(trace, launches);
  if (trace.memory.size() > 0) a->memory = passes::BuildMemoryTimeline(trace, events);
  a->collectives = FindCollectiveCalls(trace);
}

std::optional<int64_t> StepAt(const std::vector<StepRow>& steps, int64_t t) {
  auto after = std::upper_bound(steps.begin(), steps.end(), t,
                                [](int64_t time, const StepRow& s) { return time < s.start_ns; });
  if (after == steps.begin()) return std::nullopt;
  const StepRow& s = *(after - 1);
  if (t - s.start_ns >= s.wall_ns) return std::nullopt;
  return s.step;
}

}  // namespace profana::job
