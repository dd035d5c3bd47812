#include "profana/passes/gpu_evaluation.h"

#include <algorithm>
#include <cmath>

#include "profana/passes/event_times.h"

namespace profana::passes {
namespace {

// The reference's is_cuda_kernel: memory operations are not kernels.
bool IsKernelName(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  for (const char* word : {"mem", "cpy", "alloc", "free"})
    if (lower.find(word) != std::string::npos) return false;
  return true;
}

// What each event is to the queue, its name looked at once per distinct name: a trace has
// hundreds of names and millions of launches and kernels.
class QueueRoles {
 public:
  explicit QueueRoles(const Trace& trace) : trace_(trace), role_(trace.strings.size(), kUnknown) {}

  bool IsLaunch(uint32_t e) {
    return IsRuntimeOrDriver(trace_.events.kind[e]) && (Role(e) & kLaunchName);
  }
  bool IsKernel(uint32_t e) {
    return IsDeviceWork(trace_.events.kind[e]) && (Role(e) & kKernelName);
  }

 private:
  static constexpr uint8_t kUnknown = 0x80, kLaunchName = 1, kKernelName = 2;
  uint8_t Role(uint32_t e) {
    StringId name = trace_.events.name[e];
    uint8_t& role = role_[name.value];
    if (role == kUnknown) {
      std::string_view text = trace_.str(name);
      role = static_cast<uint8_t>((IsLaunchName(text) ? kLaunchName : 0) |
                                  (IsKernelName(text) ? kKernelName : 0));
    }
    return role;
  }

  const Trace& trace_;
  std::vector<uint8_t> role_;  // by name id
};

// Sorted, disjoint intervals with prefix sums: the length of their union inside [a, b) in
// O(log n).
class IntervalSet {
 public:
  explicit IntervalSet(std::vector<TimeInterval> intervals) {
    std::sort(intervals.begin(), intervals.end(),
              [](const TimeInterval& a, const TimeInterval& b) { return a.start_ns < b.start_ns; });
    for (const TimeInterval& i : intervals) {
      if (i.end_ns <= i.start_ns) continue;
      if (!merged_.empty() && i.start_ns <= merged_.back().end_ns) {
        merged_.back().end_ns = std::max(merged_.back().end_ns, i.end_ns);
      } else {
        merged_.push_back(i);
      }
    }
    prefix_.assign(merged_.size() + 1, 0);
    for (size_t k = 0; k < merged_.size(); ++k)
      prefix_[k + 1] = prefix_[k] + merged_[k].end_ns - merged_[k].start_ns;
  }
  int64_t Overlap(int64_t a, int64_t b) const { return b > a ? Covered(b) - Covered(a) : 0; }
  const std::vector<TimeInterval>& intervals() const { return merged_; }

 private:
  // Union length before t.
  int64_t Covered(int64_t t) const {
    auto it = std::upper_bound(merged_.begin(), merged_.end(), t,
                               [](int64_t v, const TimeInterval& i) { return v < i.start_ns; });
    size_t k = it - merged_.begin();
    if (k == 0) return 0;
    const TimeInterval& last = merged_[k - 1];
    return prefix_[k - 1] + std::min(t, last.end_ns) - last.start_ns;
  }
  std::vector<TimeInterval> merged_;
  std::vector<int64_t> prefix_;
};

// The order BasicEvaluation's metrics dict is filled in: a stack seeded with the roots, popped
// from the right, children pushed in order.
std::vector<uint32_t> MetricsOrder(const FunctionEventList& e,
                                   const std::vector<uint8_t>& evaluated) {
  std::vector<uint32_t> stack, order;
  for (uint32_t i = 0; i < e.size(); ++i)
    if (evaluated[i] && !e.parent[i].valid()) stack.push_back(i);
  while (!stack.empty()) {
    uint32_t i = stack.back();
    stack.pop_back();
    order.push_back(i);
    for (uint32_t k = e.child_begin[i]; k < e.child_begin[i + 1]; ++k)
      if (evaluated[e.child_index[k].value]) stack.push_back(e.child_index[k].value);
  }
  return order;
}

std::vector<uint8_t> Evaluated(const FunctionEventList& e) {
  std::vector<uint8_t> evaluated(e.size(), 0);
  for (uint32_t i = 0; i < e.size(); ++i)
    evaluated[i] = e.device_type[i] == DeviceType::kCPU && e.source[i] != kSynthetic;
  return evaluated;
}

// The mean and sample standard deviation torch.mean / torch.std compute.
void MeanStd(const std::vector<double>& v, double* mean, double* std) {
  *mean = 0;
  for (double x : v) *mean += x;
  *mean /= v.size();
  double ss = 0;
  for (double x : v) ss += (x - *mean) * (x - *mean);
  *std = v.size() > 1 ? std::sqrt(ss / (v.size() - 1)) : 0;
}

}  // namespace

bool IsLaunchName(std::string_view name) {
  static constexpr std::string_view kPrefixes[] = {
      "cudaLaunchKernel",
      "__cudaLaunchKernel",
      "cudaLaunchCooperativeKernel",  // the reference's list
      "hipLaunchKernel",
      "hipExtLaunchKernel",
      "hipModuleLaunchKernel",
      "hipExtModuleLaunchKernel",
      "cuLaunchKernel",
  };
  for (std::string_view p : kPrefixes)
    if (name.substr(0, p.size()) == p) return true;
  return name == "cudaLaunch" || name == "cudaLaunch_ptsz";  // pre-CUDA 9.2 launches (nvprof)
}

int32_t MaxQueueDepth(const GpuEvaluation& eval) {
  int32_t deepest = 0;
  for (const QueuePoint& p : eval.queue) deepest = std::max(deepest, p.depth);
  return deepest;
}

int64_t IdleNs(const GpuEvaluation& eval) {
  int64_t idle = 0;
  for (const TimeInterval& i : eval.idle) idle += i.end_ns - i.start_ns;
  return idle;
}

GpuEvaluation EvaluateGpu(const Trace& trace, const FunctionEventList& events,
                          const LaunchIndex& launch_index) {
  const EventTable& ev = trace.events;
  GpuEvaluation out;
  std::vector<uint32_t> launches, kernels;
  QueueRoles roles(trace);
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (roles.IsLaunch(e))
      launches.push_back(e);
    else if (roles.IsKernel(e))
      kernels.push_back(e);
  }
  out.launches = launches.size();
  out.kernels = kernels.size();
  // A launch spawns the first kernel with its correlation id, searched forward from the last one
  // mapped (the reference matches on the linked op's id; the correlation id is the exact link).
  auto first_kernel = [&](int64_t correlation) -> int32_t {
    for (EventId e : launch_index.ActivitiesOf(correlation)) {
      auto at = std::lower_bound(kernels.begin(), kernels.end(), e.value);
      if (at != kernels.end() && *at == e.value) return static_cast<int32_t>(at - kernels.begin());
    }
    return -1;
  };
  std::vector<int32_t> spawned(launches.size(), -1);
  int32_t last_mapped = 0;
  for (size_t l = 0; l < launches.size(); ++l) {
    int32_t k = first_kernel(ev.correlation[launches[l]]);
    if (k >= 0 && k >= last_mapped) {
      spawned[l] = k;
      last_mapped = k;
    } else {
      ++out.launches_without_kernel;
    }
  }
  // One pass over launches, kernels and CPU events by start time (ties in that order): the depth
  // is the number of kernels launched so far that have not started yet.
  std::vector<uint8_t> evaluated = Evaluated(events);
  out.queue_depth.assign(events.size(), 0);
  out.idle_ns.assign(events.size(), 0);
  out.queue.reserve(launches.size() + kernels.size());
  size_t l = 0, k = 0, c = 0, started = 0;
  int32_t spawned_index = -1;
  while (l < launches.size() || k < kernels.size() || c < events.size()) {
    int64_t ls = l < launches.size() ? ev.start_ns[launches[l]] : INT64_MAX;
    int64_t ks = k < kernels.size() ? ev.start_ns[kernels[k]] : INT64_MAX;
    int64_t cs = c < events.size() ? events.start_ns[c] : INT64_MAX;
    int which = ls <= ks && ls <= cs ? 0 : ks <= cs ? 1 : 2;
    int64_t start = which == 0 ? ls : which == 1 ? ks : cs;
    if (which == 0 && spawned[l] >= 0) spawned_index = spawned[l];
    while (started < kernels.size() && ev.start_ns[kernels[started]] <= start) ++started;
    int32_t depth = std::max<int32_t>(spawned_index - static_cast<int32_t>(started) + 1, 0);
    if (which == 2) {
      if (evaluated[c]) out.queue_depth[c] = depth;
      ++c;
      continue;
    }
    uint32_t e = which == 0 ? launches[l++] : kernels[k++];
    out.queue.push_back({ev.start_ns[e], ev.end_ns[e], depth, EventId(e), which == 0});
  }
  // Idle: before the first launch or kernel, after the last, and from the end of a point with an
  // empty queue to the start of the next point with a non-empty one.
  std::vector<TimeInterval> idle;
  int64_t first_cpu = INT64_MAX, last_cpu_start = INT64_MIN, last_cpu_end = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    if (!evaluated[i]) continue;
    first_cpu = std::min(first_cpu, events.start_ns[i]);
    if (events.start_ns[i] >= last_cpu_start) {
      last_cpu_start = events.start_ns[i];
      last_cpu_end = events.end_ns[i];
    }
  }
  if (!out.queue.empty() && first_cpu != INT64_MAX) {
    idle.push_back({first_cpu, out.queue.front().start_ns});
    idle.push_back({out.queue.back().end_ns, last_cpu_end});
  }
  bool is_idle = false;
  int64_t idle_start = 0;
  for (const QueuePoint& p : out.queue) {
    if (p.depth == 0 && !is_idle) {
      idle_start = p.end_ns;
      is_idle = true;
    } else if (p.depth > 0 && is_idle) {
      idle.push_back({idle_start, p.start_ns});
      is_idle = false;
    }
  }
  IntervalSet set(std::move(idle));
  out.idle = set.intervals();
  for (size_t i = 0; i < events.size(); ++i)
    if (evaluated[i]) out.idle_ns[i] = set.Overlap(events.start_ns[i], events.end_ns[i]);
  return out;
}

Ranking RankEvents(const Trace& trace, const FunctionEventList& events, const GpuEvaluation& eval,
                   size_t length) {
  Ranking out;
  // Falling phases, walking the queue series backwards from each empty point: the first segment
  // after it (between two empty points) whose highest depth is at least 4 makes [peak start,
  // empty point start]. Segments with a lower peak are passed over, as the reference's inner
  // `for j` does, so the interval may reach back over them.
  const std::vector<QueuePoint>& q = eval.queue;
  size_t n = q.size();
  auto at = [&](size_t r) -> const QueuePoint& { return q[n - 1 - r]; };  // reversed series
  std::vector<TimeInterval> falling;
  size_t i = 0;
  while (i < n) {
    if (at(i).depth > 0) {
      ++i;
      continue;
    }
    bool found = false;
    for (size_t j = i + 1; j < n;) {
      size_t next_min = j;
      while (next_min < n && at(next_min).depth > 0) ++next_min;
      if (next_min > j) {
        size_t peak = j;  // the first highest point, as argmax
        for (size_t k = j + 1; k < next_min; ++k)
          if (at(k).depth > at(peak).depth) peak = k;
        if (at(peak).depth >= 4) {
          falling.push_back({at(peak).start_ns, at(i).start_ns});
          // Without an empty point after the peak the reference goes on from i + 1, but every
          // later empty point finds the same peak and an interval inside this one.
          i = next_min;
          found = true;
          break;
        }
      }
      j = next_min + 1;
    }
    // A later empty point would search a subset of the segments just searched in vain.
    if (!found) break;
    ++i;  // the reference's habit: the empty point that ended the phase is skipped
  }
  IntervalSet set(falling);
  out.falling = set.intervals();
  std::vector<uint8_t> evaluated = Evaluated(events);
  std::vector<uint32_t> candidates;
  for (uint32_t e : MetricsOrder(events, evaluated))
    if (set.Overlap(events.start_ns[e], events.end_ns[e]) > 0) candidates.push_back(e);
  out.candidates = candidates.size();
  if (candidates.empty()) return out;
  std::vector<double> self(candidates.size()), idle(candidates.size());
  std::vector<int64_t> self_ns(candidates.size());
  EventTimes times(trace, events);
  for (size_t c = 0; c < candidates.size(); ++c) {
    uint32_t e = candidates[c];
    int64_t duration = events.end_ns[e] - events.start_ns[e];
    EventTime t;
    times.Exact(e, &t);
    self_ns[c] = t.self_cpu_ns;
    self[c] = static_cast<double>(t.self_cpu_ns);
    idle[c] = duration ? static_cast<double>(eval.idle_ns[e]) / duration : 0.0;
  }
  double self_mean, self_std, idle_mean, idle_std;
  MeanStd(self, &self_mean, &self_std);
  MeanStd(idle, &idle_mean, &idle_std);
  std::vector<double> score(candidates.size());
  for (size_t c = 0; c < candidates.size(); ++c) {
    double z_idle = idle_std > 0 ? (idle[c] - idle_mean) / idle_std : 0.0;
    double z_self = self_std > 0 ? (self[c] - self_mean) / self_std : 0.0;
    score[c] = z_idle + 0.6 * z_self;
  }
  // The best `length` as a stable sort by score, best first, would leave them (ties in the
  // candidates' order), found without sorting every candidate: there can be millions.
  std::vector<uint32_t> order(candidates.size());
  for (uint32_t c = 0; c < order.size(); ++c) order[c] = c;
  size_t keep = std::min(length, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(),
                    [&](uint32_t a, uint32_t b) {
                      return score[a] > score[b] || (score[a] == score[b] && a < b);
                    });
  out.events.reserve(keep);
  for (size_t i = 0; i < keep; ++i) {
    uint32_t c = order[i], e = candidates[c];
    RankedEvent r;
    r.event = FnEventId(e);
    r.score = score[c];
    r.idle_fraction = idle[c];
    r.self_ns = self_ns[c];
    r.idle_ns = eval.idle_ns[e];
    r.queue_depth = eval.queue_depth[e];
    out.events.push_back(r);
  }
  return out;
}

std::string SourceCodeLocation(const Trace& trace, const FunctionEventList& events, FnEventId id) {
  uint32_t event = id.value;
  auto names_python_file = [](std::string_view frame) {
    size_t py = frame.find(".py(");
    return py != std::string_view::npos && frame.find(')', py) != std::string_view::npos;
  };
  for (StringId frame : events.StackFrames(trace, events.stack[event]))
    if (names_python_file(trace.str(frame))) return std::string(trace.str(frame));
  // Newer traces record Python calls as python_function events: the innermost one around the
  // event on its thread that names a file.
  const EventTable& ev = trace.events;
  int64_t best_start = INT64_MIN;
  std::string best;
  for (uint32_t e = 0; e < ev.size() && ev.start_ns[e] <= events.start_ns[event]; ++e) {
    if (ev.kind[e] != ActivityKind::kPythonFunction || ev.thread[e] != events.thread[event])
      continue;
    if (ev.end_ns[e] < events.end_ns[event] || ev.start_ns[e] < best_start) continue;
    if (!names_python_file(trace.str(ev.name[e]))) continue;
    best_start = ev.start_ns[e];
    best = std::string(trace.str(ev.name[e]));
  }
  return best.empty() ? "No source code location found" : best;
}

}  // namespace profana::passes
