#include "profana/passes/gpu_streams.h"

#include <algorithm>
#include <map>

#include "profana/model/activity_device.h"
#include "profana/passes/graph_launches.h"
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
    int32_t device = ActivityDevice(trace, e);
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
    uint32_t busy_last = acts.front();  // the activity that ends at busy_end
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
          g.launch_missing = !launch;
          g.inside_graph = launch && ev.correlation[busy_last] == ev.correlation[next] &&
                           IsGraphLaunchName(trace.str(ev.name[launch->value]));
          if (launch && !g.inside_graph)
            g.running_op = finder.At(ev.thread[launch->value], busy_end + (start - busy_end) / 2);
          if (!launch) {
            ++out.unlaunched_gaps;
            out.unlaunched_gap_ns += start - busy_end;
          }
          gaps.push_back(g);
        }
        t.busy_ns += end - start;
        busy_end = end;
        busy_last = next;
      } else if (end > busy_end) {
        t.busy_ns += end - busy_end;
        busy_end = end;
        busy_last = next;
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

bool IsHtaQueueLaunchName(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
      "cudaMemcpyAsync", "cudaMemsetAsync", "hipLaunchKernel", "hipExtModuleLaunchKernel",
      "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream",
      "runFunction - job_prep_and_submit_for_execution",  // MTIA
      // Level Zero / Unified Runtime (XPU)
      "urEnqueueUSMFill", "urEnqueueUSMFill2D", "urEnqueueUSMMemcpy", "urEnqueueUSMMemcpy2D",
      "urEnqueueKernelLaunch", "urEnqueueKernelLaunchExp", "urEnqueueKernelLaunchCustomExp",
      "urEnqueueKernelLaunchWithArgsExp", "urEnqueueCooperativeKernelLaunchExp",
      "urEnqueueMemBufferFill", "urEnqueueMemBufferRead", "urEnqueueMemBufferWrite",
      "urEnqueueMemBufferCopy", "urUSMHostAlloc", "urUSMSharedAlloc", "urUSMDeviceAlloc"};
  for (std::string_view n : kNames)
    if (name == n) return true;
  return false;
}

namespace {

// One change of a stream's queue length; `order` breaks ties at one instant.
struct QueueChange {
  int64_t ts;
  int32_t order;  // kProfana: -1 (ends) before +1 (starts); kHta: 0 launches before 1 starts
  uint32_t event;
  int32_t delta;
  bool operator<(const QueueChange& o) const {
    if (ts != o.ts) return ts < o.ts;
    if (order != o.order) return order < o.order;
    return event < o.event;
  }
};

}  // namespace

std::vector<StreamQueue> ComputeStreamQueues(const Trace& trace, const LaunchIndex& launches,
                                             QueueModel model, int32_t limit) {
  const EventTable& ev = trace.events;
  const bool hta = model == QueueModel::kHta;
  // The changes per stream, then one sorted sweep each.
  std::map<uint32_t, std::vector<QueueChange>> changes;
  std::map<uint32_t, int32_t> devices;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (!IsDeviceWork(ev.kind[e])) continue;
    std::optional<EventId> launch = launches.Launch(ev.correlation[e]);
    auto& c = changes[ev.thread[e].value];
    if (hta) {
      if (!launch || !IsHtaQueueLaunchName(trace.str(ev.name[launch->value]))) continue;
      c.push_back({ev.start_ns[launch->value], 0, e, +1});
      c.push_back({ev.start_ns[e], 1, e, -1});
    } else {
      int64_t enqueued =
          launch ? std::min(ev.start_ns[launch->value], ev.start_ns[e]) : ev.start_ns[e];
      c.push_back({enqueued, +1, e, +1});
      c.push_back({ev.end_ns[e], -1, e, -1});
    }
    devices[ev.thread[e].value] = ActivityDevice(trace, e);
  }
  std::vector<StreamQueue> out;
  for (auto& [stream, c] : changes) {
    if (c.empty()) continue;  // kHta: no activity of the stream was launched by a listed call
    // kProfana: ends before starts at the same instant, so a finished operation leaves before
    // the next counts. kHta: launches before starts, the order HTA concatenates them in.
    std::sort(c.begin(), c.end());
    StreamQueue q;
    q.device = devices[stream];
    q.stream = ThreadId(stream);
    int32_t length = 0;
    double weighted = 0, sum = 0;
    for (size_t i = 0; i < c.size(); ++i) {
      if (i > 0) {
        int64_t dt = c[i].ts - c[i - 1].ts;
        weighted += static_cast<double>(dt) * length;
        if (length >= limit) q.blocked_ns += dt;
      }
      length += c[i].delta;
      sum += length;
      // kHta keeps every change as a point (its summary counts them); kProfana one per instant.
      if (hta || i + 1 == c.size() || c[i + 1].ts != c[i].ts) q.series.push_back({c[i].ts, length});
      q.max_length = std::max(q.max_length, length);
    }
    if (hta) {
      q.mean_length = sum / static_cast<double>(c.size());
    } else {
      int64_t window = c.back().ts - c.front().ts;
      q.mean_length = window > 0 ? weighted / window : 0;
    }
    // Time at the maximum, from the series.
    for (size_t i = 0; i + 1 < q.series.size(); ++i)
      if (q.series[i].length == q.max_length)
        q.time_at_max_ns += q.series[i + 1].ts_ns - q.series[i].ts_ns;
    out.push_back(std::move(q));
  }
  return out;
}

}  // namespace profana::passes
