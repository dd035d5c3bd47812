// The working state of BuildFunctionEvents (function_events.cc): PyTorch's event list before
// duplicate removal (the candidates), with a column per thing each step works out. Each step has
// a file of its own: choosing the events (function_event_candidates.cc), memory attribution
// (memory_attribution.cc), the op tree, scopes and duplicate removal (op_tree.cc), kernel
// attribution (kernel_attribution.cc). Internal to passes/; indices here are positions in the
// candidate list, which are neither EventIds nor FnEventIds.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/passes/function_events.h"
#include "profana/passes/kineto_placement.h"

namespace profana::passes {

// What PyTorch decides about a Kineto file's events that the file does not say, worked out once
// per list: the candidates use it, and so do the list's own times, threads and async flags.
struct KinetoRules {
  bool records_links = false;  // TraceRecordsLinks
  AnnotationCorrection annotation_fix;
  KinetoPlacement placement;         // kineto_placement.h
  std::vector<uint8_t> async_event;  // per trace event (async_events.h); empty when none
};
// `link`: kPyTorch repeats PyTorch's id collisions in the placement too (kineto_placement.h).
KinetoRules WorkOutKinetoRules(const Trace& trace, LinkRule link);

// Where a candidate comes from, which says where its times are: a trace event's own, a GPU user
// annotation's corrected by KinetoRules::annotation_fix, or a [memory] record's (zero length).
enum class CandidateOrigin : uint8_t { kEvent, kAnnotation, kMemoryRecord };

// The [memory] records by time: the records inside any span in two searches
// (memory_attribution.cc).
struct MemoryRecordsByTime {
  std::vector<uint32_t> order;  // record indices, by time (stable)
  std::vector<int64_t> ts;      // their times
  // The candidates with a record inside and the [memory] events made (AddMemoryEvents): no fewer
  // than the list's events with bytes, whose values are then made at their size in one pass.
  size_t events_holding = 0;
};
MemoryRecordsByTime SortMemoryRecords(const MemoryTable& mem);

// Whose kernels candidate i now has, from Candidates::kernel_owner: empty while every candidate
// has its own.
inline uint32_t OwnerOf(const std::vector<uint32_t>& owners, size_t i) {
  return owners.empty() ? static_cast<uint32_t>(i) : owners[i];
}

struct Candidates {
  Candidates(const Trace& t, const KinetoRules& r) : trace(t), ev(t.events), rules(r) {}

  const Trace& trace;
  const EventTable& ev;
  const KinetoRules& rules;
  LinkRule link = LinkRule::kAuto;
  StringId memory_name;  // what [memory] events are called ("" when the trace lacks the string)

  // One entry per event of the list parse_kineto_results leaves. The times are not copied: the
  // trace has them (Start, End).
  std::vector<uint32_t> source;  // trace event, or memory record index for kMemoryRecord
  std::vector<CandidateOrigin> origin;
  std::vector<DeviceType> device;
  // Where PyTorch puts each candidate (KinetoPlacement::k*): Kineto's overhead events and the
  // runtime calls no op links, on the main thread (kineto_placement.h).
  std::vector<uint8_t> placement;
  // The tree is kept as parents: CompactCandidates makes the list's children from them, once the
  // duplicates are gone. A removed duplicate's children are its parent's (RemoveDuplicates).
  std::vector<int32_t> parent;         // -1 = top level
  std::vector<uint8_t> child_count;    // children in the tree, 2 meaning two or more
  std::vector<uint8_t> scope;          // 1 = backward function
  std::vector<uint32_t> kernel_begin;  // kernels each candidate launched (CSR)
  std::vector<EventId> kernel_index;
  // Duplicate removal: removed nodes, and whose kernels each node now has (empty while every node
  // has its own: OwnerOf).
  std::vector<uint8_t> removed;
  std::vector<uint32_t> kernel_owner;
  MemoryRecordsByTime memory;
  uint64_t removed_duplicates = 0, kernels_attributed = 0, kernels_unattributed = 0,
           external_id_mismatches = 0, launches_linked = 0, launches_enclosed = 0,
           launches_unattributed = 0;

  size_t size() const { return source.size(); }
  // A [memory] event made for a record inside no CPU event.
  bool Synthetic(size_t i) const { return origin[i] == CandidateOrigin::kMemoryRecord; }
  int64_t Start(size_t i) const { return TimeOf(i, ev.start_ns, rules.annotation_fix.start_ns); }
  int64_t End(size_t i) const { return TimeOf(i, ev.end_ns, rules.annotation_fix.end_ns); }
  // An event's time from `times`, or its record's.
  int64_t TimeOf(size_t i, const Column<int64_t>& times, int64_t annotation_fix) const {
    switch (origin[i]) {
      case CandidateOrigin::kEvent:
        return times[source[i]];
      case CandidateOrigin::kAnnotation:
        return times[source[i]] + annotation_fix;
      case CandidateOrigin::kMemoryRecord:
        break;
    }
    return trace.memory.ts_ns[source[i]];
  }
  bool IsCpu(size_t i) const { return device[i] == DeviceType::kCPU; }
  bool IsAsync(size_t i) const {
    const std::vector<uint8_t>& async = rules.async_event;
    return !async.empty() && !Synthetic(i) && async[source[i]];
  }
  // In legacy-kernel traces launches and device activities only serve to attribute kernels.
  bool Hidden(size_t i) const {
    if (!trace.metadata.legacy_kernels || Synthetic(i)) return false;
    return IsRuntimeOrDriver(ev.kind[source[i]]) || !IsCpu(i);
  }
  StringId NameOf(size_t i) const { return Synthetic(i) ? memory_name : ev.name[source[i]]; }
  ThreadId ThreadOf(size_t i) const {
    if (Synthetic(i)) return trace.memory.thread[source[i]];
    uint32_t e = source[i];
    return placement[i] != KinetoPlacement::kOwnThread ? rules.placement.to[e] : ev.thread[e];
  }
};

// The steps, in the order BuildFunctionEvents runs them.
void SelectCandidates(Candidates* c);  // the trace events that are FunctionEvents
void AddMemoryEvents(Candidates* c);   // [memory] events for records inside no event
void BuildOpTree(Candidates* c);       // parents, children, backward scopes
void AttributeKernels(Candidates* c);  // each device activity to the op that launched it
void RemoveDuplicates(Candidates* c);  // _remove_dup_nodes
// Reorders the candidates' per-candidate columns filled so far (candidate `order[k]` becomes
// candidate k): the steps that add or move candidates before the tree is built.
void PermuteCandidates(Candidates* c, const std::vector<uint32_t>& order);
// The list without the removed candidates, renumbered (the list's own columns and counts; the
// fields read from the trace are bound afterwards). It takes the candidates' columns, freeing
// each as soon as its part of the list is made, so that the two are never whole at once.
FunctionEventList CompactCandidates(Candidates* c);
// The [memory] bytes of each event of the compact list (children included), from c.memory.
void AttributeMemoryBytes(const Trace& trace, const MemoryRecordsByTime& by_time,
                          FunctionEventList* list);

}  // namespace profana::passes
