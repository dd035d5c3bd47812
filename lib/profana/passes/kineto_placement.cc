#include "profana/passes/kineto_placement.h"

#include <string>
#include <unordered_map>
#include <vector>

#include "profana/base/id_index.h"
#include "profana/base/parallel.h"

namespace profana::passes {
namespace {

// The thread that stopped the profiler, per process: the main thread (tid == pid), else the
// thread of the process's first op. Overhead events (pid -1) belong to no process: they take the
// first process's.
struct MainThreads {
  std::unordered_map<int64_t, ThreadId> by_pid;
  ThreadId first = ThreadId::None();
  ThreadId Of(int64_t pid) const {
    auto it = by_pid.find(pid);
    return it != by_pid.end() ? it->second : first;
  }
};

MainThreads FindMainThreads(const Trace& trace) {
  MainThreads out;
  const EventTable& ev = trace.events;
  const size_t threads = trace.threads.size();
  // Only each thread's first op counts (a later one changes nothing below): found with a flag per
  // thread, then the threads are taken in the order of those first ops.
  std::vector<uint8_t> seen(threads, 0);
  std::vector<ThreadId> in_order;
  for (size_t i = 0; i < ev.size() && in_order.size() < threads; ++i) {
    ThreadId t = ev.thread[i];
    if (t.value >= threads || seen[t.value] || !IsOpOrAnnotation(ev.kind[i])) continue;
    seen[t.value] = 1;
    in_order.push_back(t);
  }
  std::unordered_map<int64_t, bool> is_main;
  ThreadId first_main = ThreadId::None();
  for (ThreadId t : in_order) {
    const ThreadInfo& info = trace.threads[t.value];
    bool main = info.tid == info.pid;
    auto [it, inserted] = out.by_pid.try_emplace(info.pid, t);
    if (inserted) is_main[info.pid] = main;
    if (!inserted && main && !is_main[info.pid]) it->second = t, is_main[info.pid] = true;
    if (!out.first.valid()) out.first = t;
    if (main && !first_main.valid()) first_main = t;
  }
  if (first_main.valid()) out.first = first_main;
  return out;
}

}  // namespace

bool IsChromeTraceJson(const Trace& trace) { return IsChromeTraceJson(trace.metadata.format); }

KinetoPlacement PlaceKinetoEvents(const Trace& trace, bool links, bool literal_ids,
                                  const AnnotationCorrection& fix) {
  KinetoPlacement out;
  if (!IsChromeTraceJson(trace)) return out;
  const EventTable& ev = trace.events;
  const size_t n = ev.size();
  StringId overhead;
  bool has_overhead = trace.strings.Find("overhead", &overhead);
  if (!has_overhead && !links) return out;
  // The main threads and the ops by External id (when links are recorded) are found side by side,
  // on two cores where there are: each reads the events alone.
  MainThreads main;
  IdIndex op_by_external_id;
  auto find = [&](size_t k) {
    if (k == 0) {
      main = FindMainThreads(trace);
      return;
    }
    if (!links) return;
    op_by_external_id.Build(n, [&](uint32_t i, int64_t* id) {
      if (ev.kind[i] != ActivityKind::kCpuOp || ev.external_id[i] == kNoId) return false;
      *id = ev.external_id[i];
      return true;
    });
  };
  TwoAtOnce(links ? n : 0, find);
  auto mark = [&](size_t i, uint8_t place, ThreadId to) {
    if (!to.valid() || to == ev.thread[i]) return;
    if (out.of.empty()) {
      out.of.assign(n, KinetoPlacement::kOwnThread);
      out.to.assign(n, ThreadId::None());
    }
    out.of[i] = place;
    out.to[i] = to;
  };
  if (has_overhead) {
    for (size_t i = 0; i < n; ++i) {
      if (ev.kind[i] != ActivityKind::kCpuOther || ev.category[i] != overhead) continue;
      // libkineto's OverheadActivity has device id -1, which its writer prints as the pid; other
      // profilers' "overhead" ranges (rocmProfileData's own writes) are not Kineto activities.
      ThreadId t = ev.thread[i];
      if (t.value < trace.threads.size() && trace.threads[t.value].pid == -1)
        mark(i, KinetoPlacement::kOverhead, main.first);
    }
    if (!out.of.empty())
      out.overhead_ops = FindOverheadOps(trace, main.first, out.of, links, op_by_external_id, fix);
  }
  if (!links) return out;
  // A call is linked when its External id names a cpu_op: one that differs from its correlation
  // id, or an equal one whose op encloses the call on its thread (kernel_attribution.cc's rule).
  std::vector<ThreadId> main_of(trace.threads.size());  // by thread: its process's main thread
  for (size_t t = 0; t < main_of.size(); ++t) main_of[t] = main.Of(trace.threads[t].pid);
  auto placed = [&](size_t i) {  // the thread an unlinked call is on in PyTorch's list
    return ev.thread[i].value < main_of.size() ? main_of[ev.thread[i].value] : ev.thread[i];
  };
  for (size_t i = 0; i < n; ++i) {
    if (!IsRuntimeOrDriver(ev.kind[i]) || ev.thread[i].value >= trace.threads.size()) continue;
    ThreadId to = main_of[ev.thread[i].value];
    if (to == ev.thread[i]) continue;
    if (!CallIsLinked(ev, op_by_external_id, i)) mark(i, KinetoPlacement::kUnlinkedCall, to);
  }
  // Id collisions: PyTorch keys an unlinked call by its correlation id (CUPTI's counter) and an
  // op by its External id (its own counter), and hands the calls linked to id X the thread of
  // the last of those keyed X, in start order (an op before a call that starts with it).
  IdIndex unlinked_by_correlation;
  unlinked_by_correlation.Build(n, [&](uint32_t i, int64_t* id) {
    if (!IsRuntimeOrDriver(ev.kind[i]) || ev.correlation[i] == kNoId ||
        CallIsLinked(ev, op_by_external_id, i))
      return false;
    *id = ev.correlation[i];
    return true;
  });
  std::vector<uint8_t> colliding;  // by trace event: an unlinked call counted already
  for (size_t i = 0; i < n; ++i) {
    uint32_t op;
    if (!IsRuntimeOrDriver(ev.kind[i]) || !CallIsLinked(ev, op_by_external_id, i, &op)) continue;
    const uint32_t* call = unlinked_by_correlation.find(ev.external_id[i]);
    if (!call) continue;
    if (colliding.empty()) colliding.assign(n, 0);
    if (!colliding[*call]) colliding[*call] = 1, ++out.id_collisions;
    if (literal_ids && ev.start_ns[*call] >= ev.start_ns[op])
      mark(i, KinetoPlacement::kCollision, placed(*call));
  }
  return out;
}

}  // namespace profana::passes
