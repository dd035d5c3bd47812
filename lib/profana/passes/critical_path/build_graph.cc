#include "profana/passes/critical_path/build_graph.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "profana/passes/gpu_streams.h"

namespace profana::passes {

const char* CpEdgeTypeName(CpEdgeType type) {
  switch (type) {
    case CpEdgeType::kOperator:
      return "critical_path_operator";
    case CpEdgeType::kDependency:
      return "critical_path_dependency";
    case CpEdgeType::kLaunchDelay:
      return "critical_path_kernel_launch_delay";
    case CpEdgeType::kKernelKernel:
      return "critical_path_kernel_kernel_delay";
    case CpEdgeType::kSync:
      return "critical_path_sync_dependency";
  }
  return "";
}

namespace {

// The longest gap between a kernel's start and the end of the one before it on its stream that
// still counts as a kernel-kernel delay: HTA's KERNEL_KERNEL_DELAY_THRESHOLD_US, 1.5 ms.
constexpr int64_t kKernelKernelDelayThresholdNs = 1'500'000;

// The names the graph asks about, looked up once: an id the trace lacks stays invalid.
struct Names {
  StringId cuda_sync, stream_sync, context_sync, event_sync, stream_wait_event;
  StringId event_record, stream_wait_call;
  std::vector<StringId> blocking;
  std::vector<StringId> runtime_lock;

  explicit Names(const StringPool& pool) {
    auto find = [&](std::string_view s) {
      StringId id = StringId::None();
      pool.Find(s, &id);
      return id;
    };
    cuda_sync = find("cuda_sync");
    stream_sync = find("Stream Sync");
    context_sync = find("Context Sync");
    event_sync = find("Event Sync");
    stream_wait_event = find("Stream Wait Event");
    event_record = find("cudaEventRecord");
    stream_wait_call = find("cudaStreamWaitEvent");
    // HTA's BLOCKING_SYNC_CALLS: their last span is the device's time, not the host's.
    for (std::string_view s : {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventQuery",
                               "cudaEventSynchronize", "cudaMemcpy", "cudaMemcpyAsync"}) {
      StringId id = find(s);
      if (id.valid()) blocking.push_back(id);
    }
    // HTA's CUDA_RUNTIME_EVENTS: calls that hold the CUDA runtime's lock, one at a time.
    for (std::string_view s : {"cudaHostAlloc", "cudaLaunchKernel", "cudaMemcpyAsync"}) {
      StringId id = find(s);
      if (id.valid()) runtime_lock.push_back(id);
    }
  }
};

class Builder {
 public:
  Builder(const CpGraphInputs& in, const CpWindow& w)
      : t_(*in.trace),
        ev_(in.trace->events),
        launches_(*in.launches),
        in_(in),
        w_(w),
        names_(in.trace->strings) {}

  CpGraph Build() {
    const size_t n = ev_.size();
    g_.start_of.assign(n, CpNodeId::None());
    g_.end_of.assign(n, CpNodeId::None());
    added_.clear();
    PairDeviceSides();
    ClipWindow();
    MakeNodes();
    RuntimeLock();
    for (auto& [thread, events] : HostThreads()) WalkCallStack(events);
    QueueLengths();
    EventRecordLaunches();
    StreamWaitLaunches();
    WalkKernels();
    return std::move(g_);
  }

 private:
  int64_t Stream(uint32_t e) const {
    return IsDeviceActivity(ev_.kind[e]) ? t_.threads[ev_.thread[e].value].tid : -1;
  }
  bool IsSyncName(uint32_t e, StringId name) const { return name.valid() && ev_.name[e] == name; }
  // HTA's GPUKernelFilter: device work and syncs with a correlation id, and the device-wide syncs
  // Kineto writes on stream -1.
  bool DeviceSide(uint32_t e) const {
    if (IsSyncName(e, names_.event_sync) || IsSyncName(e, names_.context_sync)) return true;
    return Stream(e) >= 0 && IsDeviceActivity(ev_.kind[e]) && ev_.correlation[e] != kNoId;
  }
  int64_t Dur(uint32_t e) const { return ev_.end_ns[e] - ev_.start_ns[e]; }

  // HTA's index_correlation: a device-side event's launch call, and a call's device-side event
  // (the last with its correlation id).
  void PairDeviceSides() {
    const size_t n = ev_.size();
    launch_of_.assign(n, UINT32_MAX);
    device_of_.assign(n, UINT32_MAX);
    for (uint32_t e = 0; e < n; ++e) {
      if (!DeviceSide(e)) continue;
      std::optional<EventId> l = launches_.Launch(ev_.correlation[e]);
      if (!l) continue;
      launch_of_[e] = l->value;
      device_of_[l->value] = e;
    }
  }

  void ClipWindow() {
    const size_t n = ev_.size();
    in_window_.assign(n, 0);
    auto host_in = [&](uint32_t e) {
      return ev_.start_ns[e] >= w_.start_ns && ev_.start_ns[e] <= w_.end_ns && Dur(e) > 0;
    };
    for (uint32_t e = 0; e < n; ++e) {
      if (ev_.kind[e] == ActivityKind::kTraceSpan) continue;
      if (Stream(e) < 0) {
        in_window_[e] = host_in(e);
      } else {
        uint32_t l = launch_of_[e];
        in_window_[e] = (l != UINT32_MAX && Stream(l) < 0 && host_in(l)) ||
                        IsSyncName(e, names_.stream_wait_event);
      }
    }
  }

  bool IsOpNode(uint32_t e) {
    ActivityKind k = ev_.kind[e];
    if (k == ActivityKind::kCpuOp || IsRuntimeOrDriver(k)) return true;
    return k == ActivityKind::kUserAnnotation && in_.data_load && in_.data_load->active() &&
           in_.data_load->Matches(t_, ev_.name[e]);
  }

  void MakeNodes() {
    for (uint32_t e = 0; e < ev_.size(); ++e) {
      if (!in_window_[e]) continue;
      bool node =
          Stream(e) < 0 ? IsOpNode(e) : IsDeviceWork(ev_.kind[e]) && ev_.correlation[e] != kNoId;
      if (!node) continue;
      g_.start_of[e] = AddNode(e, ev_.start_ns[e], true);
      g_.end_of[e] = AddNode(e, ev_.end_ns[e], false);
    }
  }

  CpNodeId AddNode(uint32_t e, int64_t ts, bool is_start) {
    g_.nodes.push_back({EventId(e), ts, is_start});
    g_.out.emplace_back();
    g_.in.emplace_back();
    joined_.push_back(0);
    return CpNodeId(static_cast<uint32_t>(g_.nodes.size() - 1));
  }

  // Adds an edge as networkx's add_edge does: nodes join the graph in the order edges first
  // touch them, and a second edge between the same two nodes replaces the first in place.
  CpEdgeId AddEdge(CpNodeId from, CpNodeId to, CpEdgeType type, bool zero_weight = false) {
    int64_t w = 0;
    if (type != CpEdgeType::kDependency && type != CpEdgeType::kSync && !zero_weight)
      w = g_.nodes[to.value].ts_ns - g_.nodes[from.value].ts_ns;
    if (w < 0) {
      ++g_.negative_weights;
      w = 0;
    }
    for (CpNodeId v : {from, to})
      if (!joined_[v.value]) {
        joined_[v.value] = 1;
        g_.order.push_back(v);
      }
    uint64_t key = (uint64_t{from.value} << 32) | to.value;
    auto [it, fresh] = added_.emplace(key, static_cast<uint32_t>(g_.edges.size()));
    if (!fresh) {
      CpEdge& e = g_.edges[it->second];
      e.type = type;
      e.weight_ns = w;
      return CpEdgeId(it->second);
    }
    g_.edges.push_back({from, to, type, w, EventId::None()});
    CpEdgeId id(it->second);
    g_.out[from.value].push_back(id);
    g_.in[to.value].push_back(id);
    return id;
  }

  // HTA's _attribute_edge: the event whose time an operator or kernel-kernel edge is.
  void Attribute(CpEdgeId id, uint32_t src_parent) {
    CpEdge& e = g_.edges[id.value];
    if (e.type != CpEdgeType::kOperator && e.type != CpEdgeType::kKernelKernel) return;
    const CpNode& src = g_.nodes[e.from.value];
    const CpNode& dst = g_.nodes[e.to.value];
    if (e.type == CpEdgeType::kKernelKernel || src.is_start)
      e.attributed = src.event;
    else if (!dst.is_start)
      e.attributed = dst.event;
    else
      e.attributed = src_parent == UINT32_MAX ? EventId::None() : EventId(src_parent);
  }

  bool HoldsLock(CpNodeId v) const {
    const std::vector<StringId>& names = names_.runtime_lock;
    return std::find(names.begin(), names.end(), ev_.name[g_.nodes[v.value].event.value]) !=
           names.end();
  }
  // HTA's _shares_cuda_runtime_lock: two consecutive nodes of lock-holding calls, other than one
  // call's end and the next one's start; the lock pass has joined them already.
  bool SharesLock(CpNodeId a, CpNodeId b) const {
    return HoldsLock(a) && HoldsLock(b) &&
           (g_.nodes[a.value].is_start || !g_.nodes[b.value].is_start);
  }

  // HTA's _construct_graph_from_cuda_runtime_events: calls holding the CUDA runtime's lock run one
  // at a time, on any thread. In time order, each such call's end is joined from every start not
  // yet joined (its own start by an operator edge, others' by dependency edges: they waited for
  // the lock), and from the previous call's end.
  void RuntimeLock() {
    if (names_.runtime_lock.empty()) return;
    std::vector<CpNodeId> nodes;
    for (uint32_t v = 0; v < g_.nodes.size(); ++v)
      if (HoldsLock(CpNodeId(v))) nodes.push_back(CpNodeId(v));
    std::stable_sort(nodes.begin(), nodes.end(), [&](CpNodeId a, CpNodeId b) {
      const CpNode &x = g_.nodes[a.value], &y = g_.nodes[b.value];
      if (x.ts_ns != y.ts_ns) return x.ts_ns < y.ts_ns;
      return x.event < y.event;
    });
    std::vector<CpNodeId> starts;
    CpNodeId last = CpNodeId::None();
    for (CpNodeId v : nodes) {
      const CpNode& n = g_.nodes[v.value];
      if (n.is_start) {
        starts.push_back(v);
      } else {
        while (!starts.empty()) {
          CpNodeId s = starts.back();
          starts.pop_back();
          if (g_.nodes[s.value].event == n.event)
            Attribute(AddEdge(s, v, CpEdgeType::kOperator), n.event.value);
          else
            AddEdge(s, v, CpEdgeType::kDependency);
        }
        if (last.valid() && !g_.nodes[last.value].is_start)
          AddEdge(last, v, CpEdgeType::kDependency);
      }
      last = v;
    }
  }

  // The window's host events per thread, threads in (pid, tid) order as HTA groups them.
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> HostThreads() {
    std::unordered_map<uint32_t, std::vector<uint32_t>> by;
    for (uint32_t e = 0; e < ev_.size(); ++e)
      if (in_window_[e] && Stream(e) < 0) by[ev_.thread[e].value].push_back(e);
    std::vector<std::pair<uint32_t, std::vector<uint32_t>>> out(by.begin(), by.end());
    std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
      const ThreadInfo &x = t_.threads[a.first], &y = t_.threads[b.first];
      return std::make_pair(x.pid, x.tid) < std::make_pair(y.pid, y.tid);
    });
    return out;
  }

  // HTA's call stack (hta/common/call_stack.py): each event's start and end, ordered by
  // compare_events; a start is a child of the event on top of the stack, an end pops the top.
  // Then a depth-first walk with HTA's enter and exit steps.
  void WalkCallStack(const std::vector<uint32_t>& events) {
    struct Mark {
      int64_t time, dur;
      uint32_t e;
      bool start;
    };
    std::vector<Mark> marks;
    marks.reserve(events.size() * 2);
    for (uint32_t e : events) {
      marks.push_back({ev_.start_ns[e], Dur(e), e, true});
      marks.push_back({ev_.end_ns[e], Dur(e), e, false});
    }
    // Every event here lasts longer than 0. Same time: an end before a start; starts longest
    // first, then in file order; ends shortest first, then the later-written first.
    std::stable_sort(marks.begin(), marks.end(), [](const Mark& x, const Mark& y) {
      if (x.e == y.e) return x.start && !y.start;
      if (x.time != y.time) return x.time < y.time;
      if (x.start != y.start) return !x.start;
      if (x.start) return x.dur != y.dur ? x.dur > y.dur : x.e < y.e;
      return x.dur != y.dur ? x.dur < y.dur : x.e > y.e;
    });
    std::unordered_map<uint32_t, std::vector<uint32_t>> children;
    std::unordered_map<uint32_t, uint32_t> parent;
    std::vector<uint32_t> roots, stack;
    for (const Mark& m : marks) {
      if (m.start) {
        if (parent.count(m.e)) continue;  // HTA: "node has already existed"
        uint32_t p = stack.empty() ? UINT32_MAX : stack.back();
        parent[m.e] = p;
        (p == UINT32_MAX ? roots : children[p]).push_back(m.e);
        stack.push_back(m.e);
      } else if (!stack.empty()) {
        stack.pop_back();
      }
    }

    CpNodeId last = CpNodeId::None(), last_top = CpNodeId::None();
    int depth = 0;
    uint32_t last_parent = UINT32_MAX;
    auto enter = [&](uint32_t e) {
      CpNodeId s = g_.start_of[e];
      if (!s.valid()) return;
      if (depth == 0 && last_top.valid() && !SharesLock(last_top, s))
        AddEdge(last_top, s, CpEdgeType::kDependency);
      ++depth;
      if (last.valid() && !SharesLock(last, s))
        Attribute(AddEdge(last, s, CpEdgeType::kOperator), last_parent);
      last = s;
      last_parent = parent[e];
    };
    auto exit = [&](uint32_t e) {
      CpNodeId end = g_.end_of[e];
      if (!end.valid()) return;
      --depth;
      if (last.valid() && !SharesLock(last, end)) {
        bool blocking = std::find(names_.blocking.begin(), names_.blocking.end(), ev_.name[e]) !=
                        names_.blocking.end();
        Attribute(AddEdge(last, end, CpEdgeType::kOperator, blocking), last_parent);
      }
      if (depth == 0) {
        last = CpNodeId::None();
        last_top = end;
      } else {
        last = end;
        last_parent = parent[e];
      }
    };
    // Iterative depth-first walk: (event, next child index).
    std::vector<std::pair<uint32_t, size_t>> walk;
    for (uint32_t r : roots) {
      enter(r);
      walk.push_back({r, 0});
      while (!walk.empty()) {
        auto& [e, k] = walk.back();
        auto it = children.find(e);
        if (it != children.end() && k < it->second.size()) {
          uint32_t c = it->second[k++];
          enter(c);
          walk.push_back({c, 0});
        } else {
          exit(e);
          walk.pop_back();
        }
      }
    }
  }

  bool IsQueueLaunch(uint32_t e) const {
    return IsRuntimeOrDriver(ev_.kind[e]) && device_of_[e] != UINT32_MAX &&
           IsHtaQueueLaunchName(t_.str(ev_.name[e]));
  }

  // HTA's _get_queue_length_time_series_for_rank over the whole trace: per stream, +1 at each
  // listed launch call, -1 at the start of the work it launched; the length after each.
  void QueueLengths() {
    const size_t n = ev_.size();
    queue_at_.assign(n, -1);
    struct Change {
      int64_t ts;
      int order;  // launches before starts at one instant, as HTA concatenates them
      uint32_t e;
    };
    std::unordered_map<uint32_t, std::vector<Change>> by_stream;
    for (uint32_t r = 0; r < n; ++r) {
      if (!IsQueueLaunch(r)) continue;
      uint32_t k = device_of_[r];
      if (Stream(k) < 0) continue;
      auto& c = by_stream[ev_.thread[k].value];
      c.push_back({ev_.start_ns[r], 0, r});
      c.push_back({ev_.start_ns[k], 1, k});
    }
    for (auto& [stream, c] : by_stream) {
      std::stable_sort(c.begin(), c.end(), [](const Change& a, const Change& b) {
        return a.ts != b.ts ? a.ts < b.ts : a.order < b.order;
      });
      int64_t len = 0;
      for (const Change& x : c) {
        len += x.order == 0 ? 1 : -1;
        queue_at_[x.e] = len;
      }
    }
  }

  // Launch calls of HTA's list in start order, with the device and stream of what they launched.
  struct Launch {
    int64_t ts;
    uint32_t call;
    int64_t device, stream;
  };
  std::vector<Launch> LaunchesByTime() {
    std::vector<Launch> out;
    for (uint32_t r = 0; r < ev_.size(); ++r) {
      if (!IsQueueLaunch(r)) continue;
      uint32_t k = device_of_[r];
      const ThreadInfo& th = t_.threads[ev_.thread[k].value];
      out.push_back({ev_.start_ns[r], r, th.pid, th.tid});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Launch& a, const Launch& b) { return a.ts < b.ts; });
    return out;
  }

  // HTA's _get_cuda_event_record_df: for each cudaEventRecord some sync waits on, the last launch
  // on the recorded stream (of the device the wait was on) that started no later than it.
  void EventRecordLaunches() {
    const SourceEvents* src = in_.source;
    if (!src || src->wait_record.empty() || !names_.event_record.valid()) return;
    std::unordered_map<int64_t, std::pair<int64_t, int64_t>> recorded;  // corr -> device, stream
    for (uint32_t e = 0; e < ev_.size(); ++e) {
      int32_t stream = src->WaitStream(EventId(e));
      int64_t corr = src->WaitRecord(EventId(e));
      if (stream < 0 || corr == kNoId) continue;
      recorded.emplace(corr, std::make_pair(t_.threads[ev_.thread[e].value].pid, stream));
    }
    if (recorded.empty()) return;
    std::vector<Launch> launches = LaunchesByTime();
    std::map<std::pair<int64_t, int64_t>, std::vector<const Launch*>> by_stream;
    for (const Launch& l : launches) by_stream[{l.device, l.stream}].push_back(&l);
    for (uint32_t e = 0; e < ev_.size(); ++e) {
      if (ev_.name[e] != names_.event_record || ev_.correlation[e] == kNoId) continue;
      auto it = recorded.find(ev_.correlation[e]);
      if (it == recorded.end()) continue;
      auto s = by_stream.find(it->second);
      if (s == by_stream.end()) continue;
      const auto& v = s->second;
      auto after = std::upper_bound(v.begin(), v.end(), ev_.start_ns[e],
                                    [](int64_t ts, const Launch* l) { return ts < l->ts; });
      if (after == v.begin()) continue;
      record_launch_[ev_.correlation[e]] = (*(after - 1))->call;
    }
  }

  // HTA's _get_cuda_stream_wait_event_df: for each cudaStreamWaitEvent, the next launch from the
  // same thread onto the waiting stream.
  void StreamWaitLaunches() {
    if (!names_.stream_wait_call.valid() || !names_.stream_wait_event.valid()) return;
    std::vector<Launch> launches = LaunchesByTime();
    std::map<std::tuple<uint32_t, int64_t>, std::vector<const Launch*>> by;  // thread, stream
    for (const Launch& l : launches) by[{ev_.thread[l.call].value, l.stream}].push_back(&l);
    for (uint32_t w = 0; w < ev_.size(); ++w) {
      if (ev_.name[w] != names_.stream_wait_call || device_of_[w] == UINT32_MAX) continue;
      int64_t stream = Stream(device_of_[w]);
      auto it = by.find({ev_.thread[w].value, stream});
      if (it == by.end()) continue;
      const auto& v = it->second;
      auto next = std::lower_bound(v.begin(), v.end(), ev_.start_ns[w],
                                   [](const Launch* l, int64_t ts) { return l->ts < ts; });
      if (next != v.end()) wait_next_launch_[w] = (*next)->call;
    }
  }

  void SyncEdge(CpNodeId gpu_end, uint32_t call) {
    if (!gpu_end.valid() || call == UINT32_MAX) return;
    CpNodeId end = g_.end_of[call];
    if (end.valid()) AddEdge(gpu_end, end, CpEdgeType::kSync);
  }

  void HandleSync(uint32_t e) {
    uint32_t call = launch_of_[e];
    if (IsSyncName(e, names_.stream_wait_event) || IsSyncName(e, names_.event_sync)) {
      if (!in_.source) return;
      auto rec = record_launch_.find(in_.source->WaitRecord(EventId(e)));
      if (rec == record_launch_.end()) return;
      uint32_t src_kernel = device_of_[rec->second];
      if (src_kernel == UINT32_MAX) return;
      if (IsSyncName(e, names_.stream_wait_event)) {
        auto next = wait_next_launch_.find(call);
        if (next == wait_next_launch_.end()) return;
        uint32_t dest_kernel = device_of_[next->second];
        if (dest_kernel != UINT32_MAX) kernel_sync_[dest_kernel] = src_kernel;
      } else {
        SyncEdge(g_.end_of[src_kernel], call);
      }
      return;
    }
    if (IsSyncName(e, names_.context_sync)) {
      for (uint32_t s : stream_order_) SyncEdge(last_on_[s], call);
    } else if (IsSyncName(e, names_.stream_sync)) {
      auto it = last_on_.find(ev_.thread[e].value);
      if (it != last_on_.end()) SyncEdge(it->second, call);
    }
  }

  // HTA's _construct_graph_from_kernels: the window's device work in start order (syncs by their
  // end), each joined to its stream and its launch.
  void WalkKernels() {
    std::vector<std::pair<int64_t, uint32_t>> rows;
    for (uint32_t e = 0; e < ev_.size(); ++e) {
      if (!in_window_[e] || !DeviceSide(e)) continue;
      bool sync = ev_.category[e] == names_.cuda_sync && names_.cuda_sync.valid();
      if (!sync && !g_.start_of[e].valid()) continue;
      rows.push_back({sync ? ev_.end_ns[e] : ev_.start_ns[e], e});
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto [key, e] : rows) {
      if (!g_.start_of[e].valid()) {
        HandleSync(e);
        continue;
      }
      CpNodeId start = g_.start_of[e], end = g_.end_of[e];
      Attribute(AddEdge(start, end, CpEdgeType::kOperator), UINT32_MAX);
      uint32_t stream = ev_.thread[e].value;
      auto last_it = last_on_.find(stream);
      CpNodeId last = last_it == last_on_.end() ? CpNodeId::None() : last_it->second;

      CpNodeId sync_end = CpNodeId::None();
      auto ks = kernel_sync_.find(e);
      if (ks != kernel_sync_.end()) {
        sync_end = g_.end_of[ks->second];
        if (sync_end.valid()) AddEdge(sync_end, start, CpEdgeType::kSync);
        kernel_sync_.erase(ks);
      }
      uint32_t call = launch_of_[e];
      CpNodeId call_start = call == UINT32_MAX ? CpNodeId::None() : g_.start_of[call];
      int64_t call_ts = call == UINT32_MAX ? INT64_MIN : ev_.start_ns[call];
      bool launch_added = false;
      if (call != UINT32_MAX && queue_at_[call] == 1 && queue_at_[e] == 0 &&
          (!last.valid() || g_.nodes[last.value].ts_ns < call_ts) &&
          (!sync_end.valid() || g_.nodes[sync_end.value].ts_ns < call_ts) && call_start.valid()) {
        AddEdge(call_start, start, CpEdgeType::kLaunchDelay);
        launch_added = true;
        // Beyond HTA: a stream runs its work in order, so the previous kernel's end precedes
        // this one's start even when the launch came later (weight 0: the gap is the host's).
        // Without it a path could leave a stream and drop the stream's own time.
        if (last.valid()) AddEdge(last, start, CpEdgeType::kDependency);
      } else if (last.valid() && (!sync_end.valid() ||
                                  g_.nodes[sync_end.value].ts_ns < g_.nodes[last.value].ts_ns)) {
        // HTA's KERNEL_KERNEL_DELAY_THRESHOLD_US (HolisticTraceAnalysis pull request 283, in
        // its 0.6.0 release): a kernel queued behind the previous one starts within microseconds
        // of its end, so a longer gap was spent waiting on something the trace does not link
        // (an allocation, a collective, the host), not on the stream, and is no kernel-kernel
        // delay. Beyond HTA, as for a launch delay: a zero-weight edge keeps the stream's order.
        if (g_.nodes[start.value].ts_ns - g_.nodes[last.value].ts_ns <=
            kKernelKernelDelayThresholdNs)
          Attribute(AddEdge(last, start, CpEdgeType::kKernelKernel), UINT32_MAX);
        else
          AddEdge(last, start, CpEdgeType::kDependency);
      }
      if (in_.causal_launch_edges && !launch_added && call_start.valid())
        AddEdge(call_start, start, CpEdgeType::kLaunchDelay, /*zero_weight=*/true);
      if (last_it == last_on_.end()) stream_order_.push_back(stream);
      last_on_[stream] = end;
    }
  }

  const Trace& t_;
  const EventTable& ev_;
  const LaunchIndex& launches_;
  const CpGraphInputs& in_;
  CpWindow w_;
  Names names_;
  CpGraph g_;
  std::vector<uint8_t> joined_, in_window_;
  std::vector<uint32_t> launch_of_, device_of_;
  std::vector<int64_t> queue_at_;
  std::unordered_map<uint64_t, uint32_t> added_;
  std::unordered_map<int64_t, uint32_t> record_launch_;      // record correlation -> launch call
  std::unordered_map<uint32_t, uint32_t> wait_next_launch_;  // cudaStreamWaitEvent -> launch call
  std::unordered_map<uint32_t, uint32_t> kernel_sync_;       // kernel -> kernel it waits for
  std::unordered_map<uint32_t, CpNodeId> last_on_;           // stream track -> last kernel end
  std::vector<uint32_t> stream_order_;                       // streams, first kernel first
};

}  // namespace

CpGraph BuildCriticalPathGraph(const CpGraphInputs& in, const CpWindow& window) {
  return Builder(in, window).Build();
}

}  // namespace profana::passes
