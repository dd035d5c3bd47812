#include "profana/passes/gpu_streams.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace profana::passes {
namespace {

bool IsActivity(ActivityKind k) {
  return k == ActivityKind::kKernel || k == ActivityKind::kMemcpy || k == ActivityKind::kMemset;
}

// Runtime/driver call start per correlation id: when the host asked for each activity.
std::unordered_map<int64_t, uint32_t> LaunchesByCorrelation(const Trace& trace) {
  const EventTable& ev = trace.events;
  std::unordered_map<int64_t, uint32_t> launches;
  for (uint32_t e = 0; e < ev.size(); ++e)
    if ((ev.kind[e] == ActivityKind::kRuntime || ev.kind[e] == ActivityKind::kDriver) &&
        ev.correlation[e] != kNoId)
      launches.try_emplace(ev.correlation[e], e);
  return launches;
}

// The innermost CPU FunctionEvent on `thread` holding time t, or -1.
class OpFinder {
 public:
  explicit OpFinder(const FunctionEventList& e) : e_(e) {
    for (uint32_t i = 0; i < e.size(); ++i)
      if (e.device_type[i] == DeviceType::kCPU) by_thread_[e.thread[i].value].push_back(i);
  }
  int32_t At(ThreadId thread, int64_t t) const {
    auto it = by_thread_.find(thread.value);
    if (it == by_thread_.end()) return -1;
    const std::vector<uint32_t>& v = it->second;  // by start
    auto pos = std::upper_bound(v.begin(), v.end(), t,
                                [&](int64_t x, uint32_t i) { return x < e_.start_ns[i]; });
    if (pos == v.begin()) return -1;
    for (int32_t i = static_cast<int32_t>(*(pos - 1)); i >= 0; i = e_.parent[i])
      if (e_.end_ns[i] > t) return i;
    return -1;
  }

 private:
  const FunctionEventList& e_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> by_thread_;
};

}  // namespace

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
                                   int64_t consecutive_kernel_delay_ns, size_t longest_gaps) {
  const EventTable& ev = trace.events;
  IdleBreakdown out;
  out.consecutive_kernel_delay_ns = consecutive_kernel_delay_ns;
  auto launches = LaunchesByCorrelation(trace);
  OpFinder finder(events);
  // Activities per device and per stream, in start order (the trace is sorted by start).
  std::map<int32_t, std::vector<uint32_t>> by_device;
  std::map<std::pair<int32_t, uint32_t>, std::vector<uint32_t>> by_stream;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (!IsActivity(ev.kind[e])) continue;
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
        auto launch = launches.find(ev.correlation[next]);
        GapKind kind = GapKind::kOther;
        if (launch != launches.end() && ev.start_ns[launch->second] > busy_end)
          kind = GapKind::kHostWait;
        else if (launch != launches.end() && start - busy_end < consecutive_kernel_delay_ns)
          kind = GapKind::kKernelWait;
        t.gap_ns[static_cast<int>(kind)] += start - busy_end;
        if (!whole) {
          Gap g{device, stream, busy_end, start, kind, next, -1};
          if (launch != launches.end())
            g.running_op = finder.At(ev.thread[launch->second], busy_end + (start - busy_end) / 2);
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
  // by_stream is ordered by (device, stream): each device's streams are one run of it, found by
  // one lookup (looping over every stream per device took time quadratic in the streams).
  for (const auto& [device, acts] : by_device) {
    walk(device, ThreadId(UINT32_MAX), true, acts);
    for (auto it = by_stream.lower_bound({device, 0});
         it != by_stream.end() && it->first.first == device; ++it)
      walk(device, ThreadId(it->first.second), false, it->second);
  }
  std::stable_sort(gaps.begin(), gaps.end(), [](const Gap& a, const Gap& b) {
    return a.end_ns - a.start_ns > b.end_ns - b.start_ns;
  });
  if (gaps.size() > longest_gaps) gaps.resize(longest_gaps);
  out.longest = std::move(gaps);
  return out;
}

std::vector<StreamQueue> ComputeStreamQueues(const Trace& trace) {
  const EventTable& ev = trace.events;
  auto launches = LaunchesByCorrelation(trace);
  // (ts, +1/-1) per stream, then one sorted sweep each.
  std::map<uint32_t, std::vector<std::pair<int64_t, int32_t>>> changes;
  std::map<uint32_t, int32_t> devices;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (!IsActivity(ev.kind[e])) continue;
    auto launch = launches.find(ev.correlation[e]);
    int64_t enqueued = launch != launches.end()
                           ? std::min(ev.start_ns[launch->second], ev.start_ns[e])
                           : ev.start_ns[e];
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
