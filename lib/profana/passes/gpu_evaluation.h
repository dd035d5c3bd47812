// EvaluateGpu: PyTorch's BasicEvaluation (torch/profiler/_utils.py) from a trace file: the CUDA
// queue depth over time, the intervals where the queue is empty (GPU idle), each op's idle time
// and self time, and the ranking of ops worth optimising (get_optimizable_events). Linear or
// n log n where the reference nests loops. Rules and the reference's broken cases:
// docs/semantics.md, "GPU evaluation".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/model/launch_index.h"
#include "profana/passes/function_events.h"

namespace profana::passes {

struct TimeInterval {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

// One point of the queue-depth series: a launch call or a kernel, and the depth when it began.
struct QueuePoint {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  int32_t depth = 0;
  EventId event;
  bool is_launch = false;
};

struct GpuEvaluation {
  std::vector<QueuePoint> queue;   // launches and kernels, by start
  std::vector<TimeInterval> idle;  // merged, sorted intervals with an empty queue
  // Per FunctionEvent (index into the FunctionEventList): queue depth when it started and time
  // spent while the queue was empty. Only CPU events are evaluated; others stay 0.
  std::vector<int32_t> queue_depth;
  std::vector<int64_t> idle_ns;
  uint64_t launches = 0;
  uint64_t kernels = 0;
  uint64_t launches_without_kernel = 0;
};

GpuEvaluation EvaluateGpu(const Trace& trace, const FunctionEventList& events,
                          const LaunchIndex& launches);

// The deepest point of the one queue (0 when it is empty): what `queue` prints and what
// `optimizable` names when no falling phase starts from a depth of 4.
int32_t MaxQueueDepth(const GpuEvaluation& eval);
// The time with an empty queue: the idle intervals' total, in nanoseconds.
int64_t IdleNs(const GpuEvaluation& eval);

struct RankedEvent {
  FnEventId event;
  double score = 0;          // z(idle fraction) + 0.6 z(self time)
  double idle_fraction = 0;  // idle time / duration
  int64_t self_ns = 0;
  int64_t idle_ns = 0;
  int32_t queue_depth = 0;
};

struct Ranking {
  std::vector<TimeInterval> falling;  // where the queue drains from a peak of >= 4 to 0
  size_t candidates = 0;              // events overlapping those intervals
  std::vector<RankedEvent> events;    // best first, at most `length`
};

// rank_events(length). Deviations from the reference where it breaks: with fewer than two
// candidates, or when a standard deviation is 0, that z-score term is 0 (the reference divides
// by NaN or 0).
Ranking RankEvents(const Trace& trace, const FunctionEventList& events, const GpuEvaluation& eval,
                   size_t length);

// source_code_location: the innermost Python frame of the event's stack that names a .py file,
// or "No source code location found".
std::string SourceCodeLocation(const Trace& trace, const FunctionEventList& events,
                               FnEventId event);

// Kernel-launch calls by name, as the reference lists them, plus HIP and driver launches.
bool IsLaunchName(std::string_view name);

}  // namespace profana::passes
