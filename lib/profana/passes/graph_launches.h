// SummarizeGraphLaunches: the CUDA and HIP graph replays of a trace. A cudaGraphLaunch /
// hipGraphLaunch call enqueues a whole graph; CUPTI and roctracer give every kernel, memcpy and
// memset of that replay the launch call's correlation id, so the replay's work is found (and
// credited to an op, by the usual rule) through that one id. Device activities that share a
// correlation id with no launch call in the trace are replays whose launch was not recorded
// (made before the capture began): nothing can say which op they belong to.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "profana/model/launch_index.h"
#include "profana/passes/function_events.h"

namespace profana::passes {

struct GraphReplay {
  EventId launch;               // the cudaGraphLaunch / hipGraphLaunch call
  int64_t activities = 0;       // kernels, memcpys and memsets with its correlation id
  int64_t first_ns = 0;         // the first one's start
  int64_t last_ns = 0;          // the last one's end
  int64_t busy_ns = 0;          // the union of their intervals
  ThreadId stream;              // the stream of the first one
  std::optional<FnEventId> op;  // the op credited with them; none when no op launched it
};

struct GraphLaunchSummary {
  std::vector<GraphReplay> replays;  // in launch order
  int64_t activities = 0;            // over all replays
  int64_t credited = 0;              // of those, credited to an op
  // Correlation ids that several device activities share without a launch call in the trace.
  int64_t unlaunched_groups = 0;
  int64_t unlaunched_activities = 0;
};

// A runtime or driver call that launches a graph: cudaGraphLaunch, hipGraphLaunch, cuGraphLaunch
// (and their per-thread-stream variants).
bool IsGraphLaunchName(std::string_view name);

GraphLaunchSummary SummarizeGraphLaunches(const Trace& trace, const FunctionEventList& events,
                                          const LaunchIndex& launches);

}  // namespace profana::passes
