#include "profana/passes/overhead_owners.h"

#include <algorithm>
#include <functional>
#include <queue>

#include "profana/passes/kineto_placement.h"

namespace profana::passes {
namespace {

// What an event is on the stop thread's stack of PyTorch's C++ tree; kNone: not on it.
enum class Role : uint8_t { kNone, kOp, kPython, kCall, kGpuAnnotation, kOverhead };

// PyTorch's list, which build_tree stable-sorts by start alone: the profiler's own events (ops
// and annotations, then Python frames) before the Kineto events it adds.
int ListRank(Role r) { return r == Role::kOp ? 0 : r == Role::kPython ? 1 : 2; }

struct Node {
  uint32_t event;
  Role role;
  int64_t end;
};

}  // namespace

std::vector<OverheadOp> FindOverheadOps(const Trace& trace, ThreadId stop_thread,
                                        const std::vector<uint8_t>& placement_of, bool links,
                                        const IdIndex& op_by_external_id,
                                        const AnnotationCorrection& fix) {
  const EventTable& ev = trace.events;
  const uint32_t n = static_cast<uint32_t>(ev.size());
  auto pid_of = [&](ThreadId t) {
    return t.value < trace.threads.size() ? trace.threads[t.value].pid : INT64_MIN;
  };
  const int64_t stop_pid = pid_of(stop_thread);
  // Linked Kineto events (calls with an op, device work with its launch) have parents before the
  // tree is built and are not on any stack; the ones nothing links are, on the stop thread's.
  // GPU user annotations come in at their own times (below).
  auto role = [&](uint32_t i) {
    ActivityKind kind = ev.kind[i];
    if (placement_of[i] == KinetoPlacement::kOverhead) return Role::kOverhead;
    if (IsRuntimeOrDriver(kind))
      return links && pid_of(ev.thread[i]) == stop_pid && !CallIsLinked(ev, op_by_external_id, i)
                 ? Role::kCall
                 : Role::kNone;
    if (ev.thread[i] != stop_thread) return Role::kNone;
    if (IsOpOrAnnotation(kind)) return Role::kOp;
    return kind == ActivityKind::kPythonFunction ? Role::kPython : Role::kNone;
  };
  // The GPU user annotations at PyTorch's times, which one shift makes from the file's: in start
  // order, as the events are.
  std::vector<uint32_t> annotations;
  for (uint32_t i = 0; i < n; ++i)
    if (ev.kind[i] == ActivityKind::kGpuUserAnnotation) annotations.push_back(i);

  // The id under an overhead event, from the innermost open event down (kinetoEventCorrelationID:
  // a Kineto event without an id of its own takes its parent's).
  std::vector<Node> stack;  // outermost first
  auto op_with_id = [&](int64_t id, OverheadOp* o) {
    const uint32_t* op = id != kNoId && id != 0 ? op_by_external_id.find(id) : nullptr;
    if (op) o->op = *op;
  };
  auto resolve = [&](uint32_t overhead) {
    OverheadOp o;
    o.overhead = overhead;
    for (size_t k = stack.size(); k-- > 0;) {
      uint32_t e = stack[k].event;
      switch (stack[k].role) {
        case Role::kOp:  // an op's id is its own External id; an annotation launches nothing
          if (ev.kind[e] == ActivityKind::kCpuOp) o.op = e;
          return o;
        case Role::kPython:  // a Python frame's id is 0
          return o;
        case Role::kCall:
          if (ev.correlation[e] == kNoId || ev.correlation[e] == 0) break;
          op_with_id(ev.correlation[e], &o);
          o.coincidence = o.op != UINT32_MAX;
          return o;
        case Role::kGpuAnnotation:
          if (ev.external_id[e] == kNoId || ev.external_id[e] == 0) break;
          op_with_id(ev.external_id[e], &o);
          return o;
        case Role::kOverhead:
        case Role::kNone:
          break;
      }
    }
    return o;
  };

  // build_tree's replay: events by start; before each, every open event that ended earlier is
  // popped, with whatever is open above it.
  struct Ending {
    int64_t end;
    uint32_t event;
    uint32_t depth;  // its place in the stack
    bool operator>(const Ending& o) const { return end > o.end; }
  };
  std::priority_queue<Ending, std::vector<Ending>, std::greater<Ending>> ends;
  std::vector<OverheadOp> out;
  std::vector<Node> group;  // the events that start at one time, in PyTorch's list order
  uint32_t i = 0;
  Role next_role = Role::kNone;
  auto advance = [&] {
    while (i < n && (next_role = role(i)) == Role::kNone) ++i;
  };
  advance();
  size_t a = 0;
  while (i < n || a < annotations.size()) {
    int64_t start = INT64_MAX;
    if (i < n) start = ev.start_ns[i];
    if (a < annotations.size()) start = std::min(start, ev.start_ns[annotations[a]] + fix.start_ns);
    group.clear();
    for (; i < n && ev.start_ns[i] == start; ++i, advance())
      group.push_back({i, next_role, ev.end_ns[i]});
    for (; a < annotations.size() && ev.start_ns[annotations[a]] + fix.start_ns == start; ++a)
      group.push_back(
          {annotations[a], Role::kGpuAnnotation, ev.end_ns[annotations[a]] + fix.end_ns});
    std::stable_sort(group.begin(), group.end(), [](const Node& x, const Node& y) {
      return ListRank(x.role) < ListRank(y.role);
    });
    for (; !ends.empty() && ends.top().end < start; ends.pop()) {
      const Ending& e = ends.top();
      if (e.depth < stack.size() && stack[e.depth].event == e.event) stack.resize(e.depth);
    }
    for (const Node& node : group) {
      if (node.role == Role::kOverhead) out.push_back(resolve(node.event));
      if (node.end > start) {
        ends.push({node.end, node.event, static_cast<uint32_t>(stack.size())});
        stack.push_back(node);
      }
    }
  }
  return out;
}

}  // namespace profana::passes
