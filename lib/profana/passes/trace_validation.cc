#include "profana/passes/trace_validation.h"

#include <algorithm>

#include "profana/passes/gpu_evaluation.h"

namespace profana::passes {
namespace {

constexpr int64_t kEdgeNs = 1000000;  // a millisecond: launches cut off by the capture's ends

void Count(ValidationCheck* c, uint32_t event) {
  if (c->count++ == 0) c->first_event = EventId(event);
}

}  // namespace

std::vector<ValidationCheck> ValidateTrace(const Trace& t, const LaunchIndex& launches) {
  const EventTable& ev = t.events;
  ValidationCheck before{"kernels_before_launch",
                         "device activity starting before its launch call"};
  ValidationCheck orphan{"device_without_launch",
                         "device activity whose correlation id matches no launch"};
  ValidationCheck unlaunched{"launch_without_device",
                             "launch calls whose correlation id matches no device activity"};
  ValidationCheck edge{
      "unmatched_at_capture_edges",
      "unmatched launches and activities within 1 ms of the first or last device activity", 0,
      std::nullopt, false};
  ValidationCheck host{"overlapping_host_events",
                       "host events on one thread that overlap without nesting"};
  ValidationCheck device{"overlapping_device_activity",
                         "kernels, memcpys or memsets overlapping on one stream"};

  // The capture's edges: the first and last device work that has a correlation id.
  int64_t first_device = INT64_MAX, last_device = INT64_MIN;
  for (uint32_t i = 0; i < ev.size(); ++i) {
    if (ev.correlation[i] == kNoId || !IsDeviceWork(ev.kind[i])) continue;
    first_device = std::min(first_device, ev.start_ns[i]);
    last_device = std::max(last_device, ev.end_ns[i]);
  }
  auto launched_work = [&](int64_t correlation) {
    for (EventId e : launches.ActivitiesOf(correlation))
      if (IsDeviceWork(ev.kind[e.value])) return true;
    return false;
  };
  auto at_edge = [&](int64_t ts) {
    return ts - first_device < kEdgeNs || last_device - ts < kEdgeNs;
  };

  // Per-thread and per-stream sweeps: events are sorted by (start, -end).
  std::vector<std::vector<int64_t>> open(t.threads.size());
  std::vector<int64_t> stream_end(t.threads.size(), INT64_MIN);
  for (uint32_t i = 0; i < ev.size(); ++i) {
    ActivityKind k = ev.kind[i];
    uint32_t th = ev.thread[i].value;
    if (IsDeviceWork(k)) {
      if (ev.start_ns[i] < stream_end[th]) Count(&device, i);
      stream_end[th] = std::max(stream_end[th], ev.end_ns[i]);
      if (ev.correlation[i] == kNoId) continue;
      // Any runtime call may enqueue work (cudaMemcpyAsync, cudaGraphLaunch), not only launches.
      std::optional<EventId> launch = launches.Launch(ev.correlation[i]);
      if (launch && ev.start_ns[i] < ev.start_ns[launch->value]) Count(&before, i);
      if (!launch) Count(at_edge(ev.start_ns[i]) ? &edge : &orphan, i);
    } else if (!IsDeviceActivity(k) && k != ActivityKind::kTraceSpan) {
      std::vector<int64_t>& stack = open[th];
      while (!stack.empty() && stack.back() <= ev.start_ns[i]) stack.pop_back();
      if (!stack.empty() && stack.back() < ev.end_ns[i])
        Count(&host, i);
      else
        stack.push_back(ev.end_ns[i]);
      bool is_launch =
          IsRuntimeOrDriver(k) && ev.correlation[i] != kNoId && IsLaunchName(t.str(ev.name[i]));
      if (is_launch && !launched_work(ev.correlation[i]))
        Count(first_device != INT64_MAX && !at_edge(ev.start_ns[i]) ? &unlaunched : &edge, i);
    }
  }
  return {before, orphan, unlaunched, host, device, edge};
}

}  // namespace profana::passes
