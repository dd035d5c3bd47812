// BuildFunctionEvents: PyTorch's EventList after parse_kineto_results and _build_tree, computed
// from a Trace. Pure function of the trace; prints nothing.
//
// Rules (PyTorch's, and ours where a file lacks what the live profiler had; docs/semantics.md):
//  * FunctionEvents are the CPU ops, user annotations, runtime/driver calls and Kineto's overhead
//    events (device type CPU; overhead on the main thread) and the kernels, memcpys, memsets and
//    GPU user annotations (device type CUDA; annotations with the span PyTorch had, before
//    Kineto's writer widened it). python_function frames, the profiler's own span and unknown
//    categories are kept in the Trace but are not FunctionEvents. Names PyTorch filters
//    (profiler::_record_function_enter, aten::is_leaf, ...) are dropped.
//  * [memory] records count toward every CPU event whose closed interval holds them, on any
//    thread; records inside no event become zero-length "[memory]" events.
//  * The op tree is built per thread from (start, -end) order with half-open containment;
//    partial overlaps are ignored. Duplicate nodes (same name as a parent whose only child they
//    are) are removed in one linear pass, lifting their kernels.
//  * A kernel belongs to the op its launch is linked to (External id), else, under the default
//    rule, to the innermost cpu_op enclosing the launch on its thread (LinkRule below).
//  * Backward functions (scope 1) are recognised by name; each event under one takes the stack of
//    the forward op with the same (sequence number, forward thread).
// Each rule has a file of its own (function_event_candidates.h lists them; backward_stacks.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/sparse_rows.h"
#include "profana/base/status.h"
#include "profana/model/function_event_index.h"
#include "profana/model/trace.h"
#include "profana/passes/event_field.h"

namespace profana::passes {

enum class DeviceType : uint8_t { kCPU, kCUDA };

// How a device activity finds the op it is credited to (README "--link", docs/semantics.md).
//  kAuto: the link Kineto recorded (the launch's External id names a cpu_op and differs from its
//    correlation, or equals it and that op encloses the launch on its thread), else the innermost
//    cpu_op enclosing the launch on its thread, else none. Files of 2022-2023 Kineto record no
//    links (External id == correlation everywhere): there enclosure is what Kineto computed.
//  kPyTorch: recorded links only, as PyTorch's parse; a trace without links credits nothing.
//    PyTorch matches by id, so a call no op links whose correlation id equals an op's External id
//    is credited that op's device work too, and the op's linked calls may take its thread
//    (docs/semantics.md "Id collisions").
//  kEnclosing: the innermost enclosing cpu_op only, whatever was recorded.
// Never a user annotation (record_function) and never a runtime call: Kineto links launches to
// the operator correlation stack only.
enum class LinkRule : uint8_t { kAuto, kPyTorch, kEnclosing };

// An event's cuda_time_total, exact and as PyTorch's float sum (see event_times.h).
struct CudaTotal {
  int64_t ns = 0;
  double us = 0;
};
using CudaTotals = SparseRows<CudaTotal>;

struct FunctionEventList {
  FunctionEventList() = default;
  // Move-only: the EventFields read `source` and `synthetic_*` where they are (a move keeps them).
  FunctionEventList(FunctionEventList&&) = default;
  FunctionEventList& operator=(FunctionEventList&&) = default;
  FunctionEventList(const FunctionEventList&) = delete;
  FunctionEventList& operator=(const FunctionEventList&) = delete;

  // One entry per FunctionEvent in PyTorch's function_events order, duplicates removed.
  Column<EventId> source;             // the trace event, or kSynthetic
  Column<uint32_t> synthetic_record;  // the memory record of each kSynthetic event, in order
  Column<FnEventId> synthetic_row;    // and its row in this list (rising)
  // The trace event's values (a [memory] event's from its record): views, see event_field.h.
  EventField<StringId> name;
  EventField<StringId> trace_name;
  EventField<ThreadId> thread;
  EventField<int64_t> start_ns;
  EventField<int64_t> end_ns;
  Column<DeviceType> device_type;
  Column<uint8_t> scope;     // 1 = backward function
  Column<uint8_t> is_async;  // FunctionEvent.is_async (async_events.h); empty when none is
  bool IsAsync(size_t i) const { return !is_async.empty() && is_async[i]; }
  EventField<int32_t> sequence_nr;
  EventField<int32_t> fwd_thread;
  EventField<StringId> input_shapes;  // 0 = not recorded ("[]")
  EventField<StackId> stack;          // after backward propagation; StackFrames reads it
  Column<FnEventId> parent;           // None() = top level (device events are never in the tree)
  Column<uint32_t> child_begin;  // children of i: child_index[child_begin[i] .. child_begin[i+1])
  Column<FnEventId> child_index;
  Column<uint32_t> kernel_begin;  // kernels of i: kernel_index[kernel_begin[i] .. [i+1]), lifted
  Column<EventId> kernel_index;
  // Bytes, own (children included, as PyTorch): a native file's index has a column of each (views);
  // a list built from events keeps the events that have some in `memory`. Every event's are 0
  // where both are empty (the trace has no [memory] record). Read them through CpuMemory and
  // CudaMemory.
  Column<int64_t> cpu_memory;
  Column<int64_t> cuda_memory;
  struct MemoryBytes {
    int64_t cpu = 0, cuda = 0;
  };
  SparseRows<MemoryBytes> memory;
  bool HasMemoryBytes() const { return !cpu_memory.empty() || !memory.empty(); }
  int64_t CpuMemory(size_t i) const { return cpu_memory.empty() ? memory[i].cpu : cpu_memory[i]; }
  int64_t CudaMemory(size_t i) const {
    return cuda_memory.empty() ? memory[i].cuda : cuda_memory[i];
  }
  // Times and self memory are worked out per event when asked for: see event_times.h. A native
  // file's index also gives each event's CUDA total (views; empty when the list is built from
  // events).
  Column<int64_t> cuda_total_ns;
  Column<double> cuda_total_us;
  // A list built from events has them as ComputeCudaTotals makes them, once (cuda_totals_made).
  CudaTotals cuda_totals;
  bool cuda_totals_made = false;

  // PyTorch holds times as float microseconds relative to the profiler's start; displays are
  // computed that way (see key_averages.h). The trace's metadata.origin.
  int64_t origin_ns = 0;
  bool legacy = false;              // FunctionEvent.is_legacy: kernels live on CPU events only
  bool has_memory_records = false;  // the trace recorded memory (columns shown)
  uint64_t removed_duplicates = 0;
  uint64_t kernels_attributed = 0;
  uint64_t kernels_unattributed = 0;
  uint64_t external_id_mismatches = 0;  // launches whose recorded link and enclosing op differ
  // Launches (runtime or driver calls with device activity) by how their op was found, under the
  // list's rule. Worked out from the events only (zero when the list came from an index).
  uint64_t launches_linked = 0, launches_enclosed = 0, launches_unattributed = 0;
  bool trace_has_links = false;  // some launch or activity records External id != correlation
  // Calls no op links whose correlation id is an op's External id (kineto_placement.h); under
  // kPyTorch they are credited that op's device work, as PyTorch does.
  uint64_t id_collisions = 0;
  LinkRule link = LinkRule::kAuto;

  // Stacks the trace's trie does not hold: with verbose=True, the Python calls open when an event
  // no op links started (function_events.cc). They are named by ids from trace.stacks.size() on
  // (node k of this table is id trace.stacks.size() + k - 1), and a parent may be either kind.
  StackTable added_stacks;
  // PyTorch's stack list for an id of `stack`: innermost frame first (Trace::StackFrames, and
  // the added stacks).
  std::vector<StringId> StackFrames(const Trace& trace, StackId id) const;

  size_t size() const { return source.size(); }
};

// With `index` (what a native file written by `convert` stored: LoadedTrace::function_index, made
// from exactly these events) the list is the index's, without redoing the tree and the
// attributions; it is the same list. The index holds kAuto's attributions: another rule,
// `counts` (the launch counts info reports), or a trace that records no links (whose stderr note
// needs the counts) works them out from the events. The list's columns
// read the trace's and the index's (event_field.h): keep both alive, unchanged, while the list
// is used.
FunctionEventList BuildFunctionEvents(const Trace& trace,
                                      const std::optional<FunctionEventIndex>& index = std::nullopt,
                                      LinkRule link = LinkRule::kAuto, bool counts = false);

// Whether the trace recorded memory ([memory] records, or profile_memory set): the memory
// columns are shown. FunctionEventList::has_memory_records holds it for a built list.
bool RecordsMemory(const Trace& trace);

// Kineto writes an activity's own correlation id as its External id when it linked no op (and,
// since 2025, no External id at all); 2022-2023 Kineto wrote the own id everywhere. A trace
// records links when some launch or device activity names another id. In kernel_attribution.cc.
bool TraceRecordsLinks(const Trace& trace);

// "auto", "pytorch", "enclosing".
const char* LinkRuleName(LinkRule rule);
Result<LinkRule> ParseLinkRule(std::string_view name);

// What a native file stores so that BuildFunctionEvents need not work `events` out again (and
// EventTimes need not sum the CUDA totals). In indexed_function_events.cc.
FunctionEventIndex MakeFunctionEventIndex(const Trace& trace, const FunctionEventList& events);

}  // namespace profana::passes
