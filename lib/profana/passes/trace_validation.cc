#include "profana/passes/trace_validation.h"

#include <algorithm>

#include "profana/passes/gpu_evaluation.h"

namespace profana::passes {
namespace {

constexpr int64_t kEdgeNs = 1000000;  // a millisecond: launches cut off by the capture's ends
// Device overlaps this short are timestamp rounding: each activity record's times are converted
// and rounded on their own (tens of ns in files with fractional microseconds; up to two units in
// files of whole microseconds, where ts and dur are each truncated).
constexpr int64_t kRoundingNs = 50;
constexpr int64_t kWholeMicrosRoundingNs = 2000;
// Host events: Python calls closed by the profiler's stop may end a nanosecond after the call
// that encloses them.
constexpr int64_t kHostRoundingNs = 1;

void Count(ValidationCheck* c, uint32_t event) {
  if (c->count++ == 0) c->first_event = EventId(event);
}

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
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
      "unmatched launches and activities cut off by the start or end of the capture", 0,
      std::nullopt, false};
  ValidationCheck captured{"launches_in_graph_capture",
                           "launch calls inside a stream capture (recorded into a graph, not run)",
                           0, std::nullopt, false};
  ValidationCheck host{"overlapping_host_events",
                       "host events on one thread that overlap without nesting"};
  ValidationCheck straddle{
      "straddling_host_ranges",
      "record_function ranges or repeated calls that outlive an enclosing event (async)", 0,
      std::nullopt, false};
  ValidationCheck device{"overlapping_device_activity",
                         "kernels, memcpys or memsets overlapping on one stream"};
  ValidationCheck device_ok{
      "expected_device_overlaps",
      "overlaps within one graph launch, after a dependent (Ex) launch, or from rounding", 0,
      std::nullopt, false};

  // The capture's edges: the first and last device work that has a correlation id, and the
  // correlation ids of the first and last launch call. Correlation ids rise as calls are made,
  // so work whose id is below every recorded call was launched before the host side was
  // recorded, however long it then ran; a call above every device id ran after the device side
  // stopped.
  int64_t first_device = INT64_MAX, last_device = INT64_MIN;
  int64_t min_device_corr = INT64_MAX, max_device_corr = INT64_MIN;
  int64_t min_call_corr = INT64_MAX, max_call_corr = INT64_MIN;
  bool whole_micros = true;
  for (uint32_t i = 0; i < ev.size(); ++i) {
    if (ev.correlation[i] == kNoId) continue;
    if (IsDeviceWork(ev.kind[i])) {
      first_device = std::min(first_device, ev.start_ns[i]);
      last_device = std::max(last_device, ev.end_ns[i]);
      min_device_corr = std::min(min_device_corr, ev.correlation[i]);
      max_device_corr = std::max(max_device_corr, ev.correlation[i]);
      whole_micros = whole_micros && ev.start_ns[i] % 1000 == 0 && ev.end_ns[i] % 1000 == 0;
    } else if (IsRuntimeOrDriver(ev.kind[i])) {
      min_call_corr = std::min(min_call_corr, ev.correlation[i]);
      max_call_corr = std::max(max_call_corr, ev.correlation[i]);
    }
  }
  int64_t rounding_ns = whole_micros ? kWholeMicrosRoundingNs : kRoundingNs;
  auto launched_work = [&](int64_t correlation) {
    for (EventId e : launches.ActivitiesOf(correlation))
      if (IsDeviceWork(ev.kind[e.value])) return true;
    return false;
  };
  auto at_edge = [&](int64_t ts) {
    return ts - first_device < kEdgeNs || last_device - ts < kEdgeNs;
  };
  // A dependent launch (cudaLaunchKernelExC, cuLaunchKernelEx, hipLaunchKernelExC ...) may let
  // the kernel start before the previous one on its stream ends (programmatic dependent launch).
  auto dependent_launch = [&](uint32_t activity) {
    std::optional<EventId> l = launches.Launch(ev.correlation[activity]);
    return l && Contains(t.str(ev.name[l->value]), "LaunchKernelEx");
  };

  // Per-thread and per-stream sweeps: events are sorted by (start, -end). Python calls and the
  // other host events are two layers: a record_function range entered in one Python call and
  // left in another straddles Python frames by design, so each layer is checked on its own.
  size_t threads = t.threads.size();
  std::vector<std::vector<uint32_t>> open(2 * threads);
  std::vector<int64_t> stream_end(threads, INT64_MIN);
  std::vector<uint32_t> stream_last(threads, UINT32_MAX);
  std::vector<uint8_t> capturing(threads, 0);
  for (uint32_t i = 0; i < ev.size(); ++i) {
    ActivityKind k = ev.kind[i];
    uint32_t th = ev.thread[i].value;
    if (IsDeviceWork(k)) {
      if (ev.start_ns[i] < stream_end[th]) {
        bool expected =
            ev.end_ns[i] <= ev.start_ns[i] || stream_end[th] - ev.start_ns[i] <= rounding_ns ||
            (ev.correlation[i] != kNoId &&
             (ev.correlation[i] == ev.correlation[stream_last[th]] || dependent_launch(i)));
        Count(expected ? &device_ok : &device, i);
      }
      if (ev.end_ns[i] > stream_end[th]) {
        stream_end[th] = ev.end_ns[i];
        stream_last[th] = i;
      }
      if (ev.correlation[i] == kNoId) continue;
      // Any runtime call may enqueue work (cudaMemcpyAsync, cudaGraphLaunch), not only launches.
      std::optional<EventId> launch = launches.Launch(ev.correlation[i]);
      if (launch && ev.start_ns[i] < ev.start_ns[launch->value]) Count(&before, i);
      if (!launch)
        Count(at_edge(ev.start_ns[i]) || ev.correlation[i] < min_call_corr ? &edge : &orphan, i);
    } else if (!IsDeviceActivity(k) && k != ActivityKind::kTraceSpan) {
      std::string_view name = t.str(ev.name[i]);
      bool python = k == ActivityKind::kPythonFunction;
      std::vector<uint32_t>& stack = open[2 * th + python];
      while (!stack.empty() && ev.end_ns[stack.back()] <= ev.start_ns[i]) stack.pop_back();
      if (!stack.empty() && ev.end_ns[stack.back()] + kHostRoundingNs < ev.end_ns[i]) {
        // record_function ranges may be async (they end where the user or a collective's
        // completion ends them); a call that starts again inside its own earlier instance and
        // outlives it cannot be a nested synchronous call either.
        uint32_t outer = stack.back();
        bool async = k == ActivityKind::kUserAnnotation ||
                     ev.kind[outer] == ActivityKind::kUserAnnotation ||
                     ev.name[outer] == ev.name[i];
        Count(async ? &straddle : &host, i);
      } else if (stack.empty() || ev.end_ns[i] <= ev.end_ns[stack.back()]) {
        stack.push_back(i);
      }
      if (!IsRuntimeOrDriver(k)) continue;
      // Launches between cudaStreamBeginCapture / hipStreamBeginCapture and the end of the
      // capture on this thread are recorded into a graph; they run later, as the graph's launch.
      if (Contains(name, "StreamBeginCapture")) capturing[th] = 1;
      if (Contains(name, "StreamEndCapture")) capturing[th] = 0;
      bool is_launch = ev.correlation[i] != kNoId && IsLaunchName(name);
      if (!is_launch || launched_work(ev.correlation[i])) continue;
      if (capturing[th])
        Count(&captured, i);
      else if (first_device == INT64_MAX || at_edge(ev.start_ns[i]) ||
               ev.correlation[i] > max_device_corr)
        Count(&edge, i);
      else
        Count(&unlaunched, i);
    }
  }
  return {before, orphan, unlaunched, host, device, edge, captured, straddle, device_ok};
}

}  // namespace profana::passes
