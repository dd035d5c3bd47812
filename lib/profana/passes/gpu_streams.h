// Per device and per stream views of device activity (what Holistic Trace Analysis computes):
// the idle-time breakdown between kernels (host wait, kernel wait, other) with the longest gaps
// and the CPU op running during each, and the queue length (operations launched and not yet
// finished) of every stream over time. Rules: docs/semantics.md, "GPU evaluation".
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
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
  // Why no op is named: the next activity's launch call is not in the trace, or the gap lies
  // inside one graph replay (both activities share a graph launch's correlation id), where the
  // GPU's own scheduling, not the CPU, decides.
  bool launch_missing = false;
  bool inside_graph = false;
};

// HTA's consecutive_kernel_delay is 30 in the trace's unit: Kineto's timestamps are
// microseconds, so 30 us in effect (its docstring's "30 nanoseconds" is not what it computes).
constexpr int64_t kHtaConsecutiveKernelDelayNs = 30'000;

struct IdleBreakdown {
  std::vector<IdleTrack> tracks;  // per device (whole_device), then its streams
  std::vector<Gap> longest;       // longest gaps first
  int64_t consecutive_kernel_delay_ns = kHtaConsecutiveKernelDelayNs;
  // Stream gaps before an activity whose launch call is not in the trace: counted as other, as
  // nothing tells host wait from kernel wait there.
  int64_t unlaunched_gaps = 0;
  int64_t unlaunched_gap_ns = 0;
};

// consecutive_kernel_delay_ns: a gap shorter than this, with the next activity already
// launched, is launch overhead ("kernel wait"); HTA's default is kHtaConsecutiveKernelDelayNs.
IdleBreakdown ComputeIdleBreakdown(const Trace& trace, const FunctionEventList& events,
                                   const LaunchIndex& launches, int64_t consecutive_kernel_delay_ns,
                                   size_t longest_gaps);

struct QueueSample {
  int64_t ts_ns;
  int32_t length;
};

// Two definitions of a stream's queue length (docs/semantics.md, "GPU evaluation"):
//  * kProfana: +1 when the runtime call that launched an activity starts, -1 when the activity
//    ends (it occupies the stream until then); activities without a launch in the trace count
//    from their own start. The series holds one point per instant; the mean is time-weighted.
//  * kHta: Holistic Trace Analysis' get_queue_length_time_series: +1 when a launch call of HTA's
//    list (cudaLaunchKernel, cuLaunchKernel, cudaMemcpyAsync, cudaMemsetAsync, their HIP and
//    MTIA counterparts; not cudaGraphLaunch) starts, -1 when its activity starts; activities
//    launched otherwise do not count. One point per change (equal times: launches first, as
//    HTA concatenates them), and the mean is the plain mean over those points.
enum class QueueModel : uint8_t { kProfana, kHta };

// CUDA's launch queue holds 1024 operations per stream; with it full, the host blocks.
constexpr int32_t kCudaLaunchQueueLimit = 1024;

struct StreamQueue {
  int32_t device = -1;
  ThreadId stream;
  std::vector<QueueSample> series;  // the length after each change
  int32_t max_length = 0;
  double mean_length = 0;      // kProfana: time-weighted; kHta: plain mean over the series
  int64_t time_at_max_ns = 0;  // time spent at max_length
  int64_t blocked_ns = 0;      // time with >= the limit outstanding (the queue is full)
};

std::vector<StreamQueue> ComputeStreamQueues(const Trace& trace, const LaunchIndex& launches,
                                             QueueModel model = QueueModel::kProfana,
                                             int32_t limit = kCudaLaunchQueueLimit);

// A launch call HTA's queue length counts (the names of its runtime launch event mask).
bool IsHtaQueueLaunchName(std::string_view name);

}  // namespace profana::passes
