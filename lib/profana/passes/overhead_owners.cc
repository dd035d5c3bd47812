#include "profana/passes/overhead_owners.h"

#include <functional>
#include <queue>

#include "profana/passes/kineto_placement.h"

namespace profana::passes {
namespace {

// What an event is on the stop thread's stack of PyTorch's C++ tree; kNone: not on it.
enum class Role : uint8_t { kNone, kOp, kPython, kCall, kGpuAnnotation, kOverhead };

}  // namespace

std::vector<OverheadOp> FindOverheadOps(const Trace& trace, ThreadId stop_thread,
                                        const std::vector<uint8_t>& placement_of, bool links,
                                        const IdIndex& op_by_external_id) {
  const EventTable& ev = trace.events;
  // Linked Kineto events (calls with an op, device work with its launch) have parents before the
  // tree is built and are not on any stack; the ones nothing links are, on the stop thread's.
  auto role = [&](uint32_t i) {
    ActivityKind kind = ev.kind[i];
    if (placement_of[i] == KinetoPlacement::kOverhead) return Role::kOverhead;
    if (kind == ActivityKind::kGpuUserAnnotation) return Role::kGpuAnnotation;
    if (IsRuntimeOrDriver(kind))
      return links && !CallIsLinked(ev, op_by_external_id, i) ? Role::kCall : Role::kNone;
    if (ev.thread[i] != stop_thread) return Role::kNone;
    if (IsOpOrAnnotation(kind)) return Role::kOp;
    return kind == ActivityKind::kPythonFunction ? Role::kPython : Role::kNone;
  };
  // The id under an overhead event, from the innermost open event down (kinetoEventCorrelationID:
  // a Kineto event without an id of its own takes its parent's).
  struct Open {
    uint32_t event;
    Role role;
  };
  std::vector<Open> stack;  // outermost first
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
  for (uint32_t i = 0; i < ev.size(); ++i) {
    Role r = role(i);
    if (r == Role::kNone) continue;
    int64_t start = ev.start_ns[i];
    for (; !ends.empty() && ends.top().end < start; ends.pop()) {
      const Ending& e = ends.top();
      if (e.depth < stack.size() && stack[e.depth].event == e.event) stack.resize(e.depth);
    }
    if (r == Role::kOverhead) out.push_back(resolve(i));
    if (ev.end_ns[i] > start) {
      ends.push({ev.end_ns[i], i, static_cast<uint32_t>(stack.size())});
      stack.push_back({i, r});
    }
  }
  return out;
}

}  // namespace profana::passes
