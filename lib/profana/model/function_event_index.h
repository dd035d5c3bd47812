// FunctionEventIndex: what BuildFunctionEvents works out from a trace's events (which become
// FunctionEvents, the op tree after duplicate removal, kernel and memory attribution), as `convert`
// stores it in a native file so that analyses of that file need not work it out again
// (docs/native-format.md, "function event index"). It is not part of the Trace: a loader hands it
// over beside the trace (LoadedTrace), and BuildFunctionEvents takes it. It describes exactly the
// events it was made from; anything that changes the events (filters) drops it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>

#include "profana/base/column.h"
#include "profana/model/trace.h"

namespace profana {

// passes/function_events.h defines the columns; they are FunctionEventList's columns of the same
// names. Bump when BuildFunctionEvents would decide anything differently (the origin of PyTorch's
// float times included, which cuda_total_us depends on), or the columns change: a file with an
// index of another version is analysed from its events instead. Version 2 added the CUDA totals;
// version 3 credits kernels by recorded links (LinkRule::kAuto); version 4 lists GPU user
// annotations.
constexpr uint32_t kFunctionEventIndexVersion = 4;

struct FunctionEventIndex {
  uint32_t version = kFunctionEventIndexVersion;
  Column<EventId> source;             // trace event, or None() for a [memory] event
  Column<uint32_t> synthetic_record;  // the memory record of each [memory] event, in order
  Column<uint8_t> device_type;        // 0 CPU, 1 CUDA
  Column<uint8_t> scope;
  Column<FnEventId> parent;  // None() = top level (stored as int32_t -1)
  Column<uint32_t> child_begin;
  Column<FnEventId> child_index;
  Column<uint32_t> kernel_begin;
  Column<EventId> kernel_index;
  Column<int64_t> cpu_memory, cuda_memory;
  // Each event's cuda_time_total, exact and in PyTorch's floats (passes/event_times.h): the one
  // time that sums a whole subtree, so the one worth storing.
  Column<int64_t> cuda_total_ns;
  Column<double> cuda_total_us;
  uint64_t removed_duplicates = 0, kernels_attributed = 0, kernels_unattributed = 0,
           external_id_mismatches = 0;
  // What columns that are views read from (the mapped native file), kept alive with the index.
  std::shared_ptr<const void> backing;
};

// The index's columns, as ForEachColumn in model/trace.h lists a table's: f(name, column) in
// declaration order, which numbers the native format's sections (append, never reorder).
template <typename Index, typename F>
std::enable_if_t<std::is_same_v<std::remove_const_t<Index>, FunctionEventIndex>> ForEachColumn(
    Index& x, F&& f) {
  f("source", x.source);
  f("synthetic_record", x.synthetic_record);
  f("device_type", x.device_type);
  f("scope", x.scope);
  f("parent", x.parent);
  f("child_begin", x.child_begin);
  f("child_index", x.child_index);
  f("kernel_begin", x.kernel_begin);
  f("kernel_index", x.kernel_index);
  f("cpu_memory", x.cpu_memory);
  f("cuda_memory", x.cuda_memory);
  f("cuda_total_ns", x.cuda_total_ns);
  f("cuda_total_us", x.cuda_total_us);
}

// A trace as a loader hands it over: the trace, and the function event index its file stored
// (none for every input but a native file written with one, of this index version).
struct LoadedTrace {
  Trace trace;
  std::optional<FunctionEventIndex> function_index;
};

}  // namespace profana
