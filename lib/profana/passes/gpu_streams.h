// Per device and per stream views of device activity (what Holistic Trace Analysis computes):
// the idle-time breakdown between kernels (host wait, kernel wait, other) with the longest gaps
// and the CPU op running during each, and the queue length (operations launched and not yet
// finished) of every stream over time. Rules: docs/semantics.md, "GPU evaluation".
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "profana/model/launch_index.h"
#include "profana/passes/function_events.h"

namespace profana::passes {

enum class GapKind : uint8_t { kHostWait, kKernelWait, kOther };
const char* GapKindName(GapKind kind);

struct IdleTrack {
  int32_t device = -1;
  ThreadId stream;  // a device track; invalid (UINT32_MAX) for a whole-device row
  bool whole_device = false;
  int64_t kernels = 0;
  int64_t window_ns = 0;          // first activity start to last activity end
  int64_t busy_ns = 0;            // union of activity intervals
  int64_t gap_ns[3] = {0, 0, 0};  // idle between activities, by GapKind
  int64_t idle_ns() const { return gap_ns[0] + gap_ns[1] + gap_ns[2]; }
};

struct Gap {
  int32_t device = -1;
  ThreadId stream;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  GapKind kind = GapKind::kOther;
  EventId next_activity;  // the device activity that ended the gap
  // The FunctionEvent running on the launching thread at the gap's middle, if any.
  std::optional<FnEventId> running_op;
};

struct IdleBreakdown {
  std::vector<IdleTrack> tracks;  // per device (whole_device), then its streams
  std::vector<Gap> longest;       // longest gaps first
  int64_t consecutive_kernel_delay_ns = 30;
};

// consecutive_kernel_delay_ns: a gap shorter than this, with the next activity already
// launched, is launch overhead ("kernel wait"); HTA's default is 30 ns.
IdleBreakdown ComputeIdleBreakdown(const Trace& trace, const FunctionEventList& events,
                                   const LaunchIndex& launches, int64_t consecutive_kernel_delay_ns,
                                   size_t longest_gaps);

struct QueueSample {
  int64_t ts_ns;
  int32_t length;
};

struct StreamQueue {
  int32_t device = -1;
  ThreadId stream;
  std::vector<QueueSample> series;  // the length after each change
  int32_t max_length = 0;
  double mean_length = 0;      // time-weighted, between the first and last change
  int64_t time_at_max_ns = 0;  // time spent at max_length
  int64_t blocked_ns = 0;      // time with >= 1024 outstanding (CUDA's queue is full)
};

// Per stream: +1 when the runtime call that launched an activity starts, -1 when the activity
// ends. Activities without a launch in the trace count from their own start.
std::vector<StreamQueue> ComputeStreamQueues(const Trace& trace, const LaunchIndex& launches);

}  // namespace profana::passes
