// Where PyTorch 2.x puts the Kineto events of a Chrome-trace JSON file in its op tree. A Kineto
// activity takes the thread of the op it is linked to, else the thread that stopped the profiler
// (collection.cpp setKinetoTID): the main thread of its process. So two kinds of event move there:
//  * Kineto's own overhead ranges ("Activity Buffer Request", pid -1), which nothing links; they
//    nest into the main-thread op they overlap, and PyTorch lists under them the device work of
//    the id they take in its C++ tree (overhead_owners.h);
//  * runtime and driver calls that no op links (a worker thread's launches, a watchdog's
//    cudaEventQuery), in traces that record links; they nest into whatever the main thread ran.
// And, under --link pytorch only, a third (docs/semantics.md "Id collisions"):
//  * the calls linked to an op whose External id equals the correlation id of a call no op
//    links: PyTorch's _parse_kineto_results matches by id and gives them that call's thread when
//    the call started no earlier than the op.
// Verified against live PyTorch 2.11 sessions (testdata/live). Internal to passes/.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/model/trace.h"
#include "profana/passes/overhead_owners.h"

namespace profana::passes {

struct KinetoPlacement {
  enum : uint8_t { kOwnThread = 0, kOverhead = 1, kUnlinkedCall = 2, kCollision = 3 };
  std::vector<uint8_t> of;   // per trace event; empty when every event stays where it is
  std::vector<ThreadId> to;  // per trace event: the thread it moves to, where `of` says it moves
  // Calls no op links whose correlation id is the External id of an op that calls are linked to:
  // id collisions, counted under every rule.
  uint64_t id_collisions = 0;
  // The op whose device work each overhead event lists too, in overhead event order.
  std::vector<OverheadOp> overhead_ops;
};

// `records_links`: TraceRecordsLinks(trace), which the caller has worked out already.
// `fix`: the GPU user annotations' correction (their device times are on the overheads' stack).
KinetoPlacement PlaceKinetoEvents(const Trace& trace, bool records_links, bool literal_ids,
                                  const AnnotationCorrection& fix);

// Whether runtime or driver call `call` is linked to an op (its External id names a cpu_op and
// differs from its correlation id, or equals it and that op encloses the call on its thread);
// `op`, when linked, is that op. op_by_external_id indexes the trace's cpu_ops.
template <typename OpIndex>
bool CallIsLinked(const EventTable& ev, const OpIndex& op_by_external_id, size_t call,
                  uint32_t* op = nullptr) {
  int64_t ext = ev.external_id[call];
  const uint32_t* found = ext != kNoId ? op_by_external_id.find(ext) : nullptr;
  if (!found) return false;
  bool linked = ext != ev.correlation[call] ||
                (ev.thread[*found] == ev.thread[call] && ev.start_ns[*found] <= ev.start_ns[call] &&
                 ev.end_ns[call] <= ev.end_ns[*found]);
  if (linked && op) *op = *found;
  return linked;
}

// Whether a Chrome-trace JSON writer (Kineto's) wrote the trace: the rules of PyTorch's reading
// of Kineto's files apply to these formats only.
bool IsChromeTraceJson(const Trace& trace);

}  // namespace profana::passes
