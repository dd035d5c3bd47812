#include "profana/passes/gpu_streams.h"

#include <algorithm>
#include <map>

#include "profana/passes/innermost_op.h"

namespace profana::passes {

const char* GapKindName(GapKind kind) {
  switch (kind) {
    case GapKind::kHostWait:
      return "host_wait";
    case GapKind::kKernelWait:
      return "kernel_wait";
    case GapKind::kOther:
      return "other";
  }
  return "other";
}

IdleBreakdown ComputeIdleBreakdown(const Trace& trace, const FunctionEventList& events,
                                   const LaunchIndex& launches, int64_t consecutive_kernel_delay_ns,
                                   size_t longest_gaps) {
  const EventTable& ev = trace.events;
  IdleBreakdown out;
  out.consecutive_kernel_delay_ns = consecutive_kernel_delay_ns;
  InnermostOpFinder finder(trace, events, InnermostOpFinder::Interval::kHalfOpen);
  // Activities per device and per stream, in start order (the trace is sorted by start).
  std::map<int32_t, std::vector<uint32_t>> by_device;
  std::map<std::pair<int32_t, uint32_t>, std::vector<uint32_t>> by_stream;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (!IsDeviceWork(ev.kind[e])) continue;
    int32_t device = ev.device[e] >= 0
                         ? ev.device[e]
                         : static_cast<int32_t>(trace.threads[ev.thread[e].value].pid);
    by_device[device].push_back(e);
    by_stream[{device, ev.thread[e].value}].push_back(e);
  }
  std::vector<Gap> gaps;
  auto walk = [&](int32_t device, ThreadId stream, bool whole, const std::vector<uint32_t>& acts) {
    IdleTrack t;
    t.device = device;
    t.stream = stream;
    t.whole_device = whole;
    t.kernels = static_cast<int64_t>(acts.size());
    int64_t first = ev.start_ns[acts.front()], busy_end = ev.end_ns[acts.front()];
    t.busy_ns = busy_end - first;
    for (size_t k = 1; k < acts.size(); ++k) {
      uint32_t next = acts[k];
      int64_t start = ev.start_ns[next], end = ev.end_ns[next];
      if (start > busy_end) {
        // HTA's rules: the next activity was launched only after the GPU ran dry: host wait;
        // launched earlier but started after a short delay: kernel wait; otherwise other.
        std::optional<EventId> launch = launches.Launch(ev.correlation[next]);
        GapKind kind = GapKind::kOther;
        if (launch && ev.start_ns[launch->value] > busy_end)
          kind = GapKind::kHostWait;
        else if (launch && start - busy_end < consecutive_kernel_delay_ns)
          kind = GapKind::kKernelWait;
        t.gap_ns[static_cast<int>(kind)] += start - busy_end;
        if (!whole) {
          Gap g{device, stream, busy_end, start, kind, EventId(next), std::nullopt};
          if (launch)
            g.running_op = finder.At(ev.thread[launch->value], busy_end + (start - busy_end) / 2);
          gaps.push_back(g);
        }
        t.busy_ns += end - start;
        busy_end = end;
      } else if (end > busy_end) {
        t.busy_ns += end - busy_end;
        busy_end = end;
      }
    }
    t.window_ns = busy_end - first;
    out.tracks.push_back(t);
  };
  for (const auto& [device, acts] : by_device) {
    walk(device, ThreadId(UINT32_MAX), true, acts);
    for (const auto& [key, stream_acts] : by_stream)
      if (key.first == device) walk(device, ThreadId(key.second), false, stream_acts);
  }
  std::stable_sort(gaps.begin(), gaps.end(), [](const Gap& a, const Gap& b) {
    return a.end_ns - a.start_ns > b.end_ns - b.start_ns;
  });
  if (gaps.size() > longest_gaps) gaps.resize(longest_gaps);
  out.longest = std::move(gaps);
  return out;
}

std::vector<StreamQueue> ComputeStreamQueues(const Trace& trace, const LaunchIndex& launches) {
  const EventTable& ev = trace.events;
  // (ts, +1/-1) per stream, then one sorted sweep each.
  std::map<uint32_t, std::vector<std::pair<int64_t, int32_t>>> changes;
  std::map<uint32_t, int32_t> devices;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (!IsDeviceWork(ev.kind[e])) continue;
    std::optional<EventId> launch = launches.Launch(ev.correlation[e]);
    int64_t enqueued =
        launch ? std::min(ev.start_ns[launch->value], ev.start_ns[e]) : ev.start_ns[e];
    auto& c = changes[ev.thread[e].value];
    c.push_back({enqueued, +1});
    c.push_back({ev.end_ns[e], -1});
    devices[ev.thread[e].value] = ev.device[e] >= 0
                                      ? ev.device[e]
                                      : static_cast<int32_t>(trace.threads[ev.thread[e].value].pid);
  }
  std::vector<StreamQueue> out;
  constexpr int32_t kFullQueue = 1024;
  for (auto& [stream, c] : changes) {
    // Ends before starts at the same instant: a finished operation leaves before the next counts.
    std::sort(c.begin(), c.end());
    StreamQueue q;
    q.device = devices[stream];
    q.stream = ThreadId(stream);
    int32_t length = 0;
    double weighted = 0;
    for (size_t i = 0; i < c.size(); ++i) {
      if (i > 0) {
        int64_t dt = c[i].first - c[i - 1].first;
        weighted += static_cast<double>(dt) * length;
        if (length >= kFullQueue) q.blocked_ns += dt;
      }
      length += c[i].second;
      if (i + 1 == c.size() || c[i + 1].first != c[i].first)
        q.series.push_back({c[i].first, length});
      q.max_length = std::max(q.max_length, length);
    }
    int64_t window = c.back().first - c.front().first;
    q.mean_length = window > 0 ? weighted / window : 0;
    // Time at the maximum, from the coalesced series.
    for (size_t i = 0; i + 1 < q.series.size(); ++i)
      if (q.series[i].length == q.max_length)
        q.time_at_max_ns += q.series[i + 1].ts_ns - q.series[i].ts_ns;
    out.push_back(std::move(q));
  }
  return out;
}

}  // namespace profana::passes
