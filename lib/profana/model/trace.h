// Trace: the common, frozen model every importer produces and every pass reads. Columns are
// struct-of-arrays indexed by event position; strings are StringIds into one pool; times are
// int64 nanoseconds (on the trace's own clock, not shifted). Only TraceBuilder writes a Trace.
//
// The events are the trace's duration events (Chrome 'X', or B/E pairs), in PyTorch's
// function_events order: a stable sort by (start, -end) over the order of the input. Which of
// them become FunctionEvents is decided by passes (see passes/function_events.h), not here: the
// model keeps everything it read.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "profana/base/column.h"
#include "profana/base/ids.h"
#include "profana/base/string_pool.h"
#include "profana/model/activity_kind.h"
#include "profana/model/diagnostics.h"
#include "profana/model/trace_format.h"

namespace profana {

constexpr int64_t kNoId = std::numeric_limits<int64_t>::min();
// Every time in a Trace lies within +-kMaxTimeNs (about 146 years either side of 0), so the
// difference of any two times, and a time plus such a difference, fits in int64_t. Importers
// count and skip events outside it instead of letting a pass overflow.
constexpr int64_t kMaxTimeNs = int64_t{1} << 62;
inline bool TimeInRange(int64_t ns) { return ns >= -kMaxTimeNs && ns <= kMaxTimeNs; }

struct ThreadInfo {
  int64_t pid = 0;
  int64_t tid = 0;
  StringId pid_text;  // the pid as written when it was a string ("CPU functions"), else 0
  StringId tid_text;  // the tid as written when it was a string ("stream 7"), else 0
  StringId name;      // from an M thread_name event
  StringId process_name;
};

struct EventTable {
  Column<StringId> name;        // with ProfilerStep#N rewritten to ProfilerStep*
  Column<StringId> trace_name;  // as written in the trace
  Column<StringId> category;
  Column<ActivityKind> kind;
  Column<ThreadId> thread;
  Column<int64_t> start_ns;
  Column<int64_t> end_ns;
  Column<int64_t> external_id;    // args "External id" / "external id"; kNoId if absent
  Column<int64_t> correlation;    // args "correlation"; kNoId if absent
  Column<int32_t> sequence_nr;    // args "Sequence number"; -1 if absent
  Column<int32_t> fwd_thread;     // args "Fwd thread id"; 0 if absent (as PyTorch)
  Column<StringId> input_shapes;  // Python str() of "Input Dims"; 0 = "[]" or not recorded
  Column<StackId> stack;          // "Call stack", filtered; 0 = empty
  Column<int32_t> device;         // args "device" of device activities; -1 if absent
  // The collective an event (an NCCL kernel, a record_param_comms op) belongs to, as Kineto
  // records it in args: CommField values joined by kCommSeparator, in CommField order, each as
  // the trace wrote it (strings unquoted); 0 when the event has none of those args. One string
  // per distinct combination, so a trace of a few collectives adds a few strings.
  Column<StringId> comm;
  // For the ops PyTorch counts FLOPs for (model/flop_inputs.h), the recorded args its formulas
  // read, joined; 0 for every other event and where the trace recorded no input shapes.
  Column<StringId> flop_inputs;

  size_t size() const { return start_ns.size(); }
};

// The args of a collective, in the order EventTable::comm keeps them.
enum class CommField : uint8_t {
  kCollectiveName,  // "Collective name": allreduce, allgather, ...
  kGroupName,       // "Process Group Name"
  kGroupRanks,      // "Process Group Ranks": "[0, 1]"
  kGroupSize,       // "Group size"
  kInNelems,        // "In msg nelems"
  kOutNelems,       // "Out msg nelems"
  kDtype,           // "dtype": Float, BFloat16, ...
};
constexpr size_t kCommFields = 7;
constexpr char kCommSeparator = '\x1f';  // ASCII unit separator: never in a name Kineto writes
// The args' names as Kineto writes them, in CommField order.
constexpr std::string_view kCommArgNames[kCommFields] = {"Collective name",
                                                         "Process Group Name",
                                                         "Process Group Ranks",
                                                         "Group size",
                                                         "In msg nelems",
                                                         "Out msg nelems",
                                                         "dtype"};
// Splits an EventTable::comm string into its fields (empty where the trace had none).
inline void SplitComm(std::string_view joined, std::string_view (&fields)[kCommFields]) {
  for (size_t f = 0; f < kCommFields; ++f) {
    size_t end = joined.find(kCommSeparator);
    fields[f] = joined.substr(0, end);
    joined = end == std::string_view::npos ? std::string_view() : joined.substr(end + 1);
  }
}

// [memory] instant events (profile_memory=True).
struct MemoryTable {
  Column<int64_t> ts_ns;
  Column<ThreadId> thread;
  Column<int64_t> bytes;            // negative for frees
  Column<int64_t> addr;             // kNoId if absent
  Column<int64_t> total_allocated;  // kNoId if absent
  Column<int64_t> total_reserved;   // kNoId if absent
  Column<int8_t> device_type;       // 0 = CPU, 1 = CUDA (PyTorch's c10::DeviceType)
  Column<int16_t> device_id;

  size_t size() const { return ts_ns.size(); }
};

// Flow events (ph s / f): Kineto links each runtime launch to its device activity with them.
struct FlowTable {
  Column<int64_t> id;
  Column<int64_t> ts_ns;
  Column<ThreadId> thread;
  Column<StringId> category;  // ac2g, async, async_gpu, async_cpu_to_gpu, fwdbwd
  Column<uint8_t> is_start;   // 1 for 's', 0 for 'f'

  size_t size() const { return id.size(); }
};

// Call stacks as a parent-pointer trie of frames, root (outermost) first. Node 0 is the empty
// stack. A StackId names the innermost frame's node; walking parents gives PyTorch's stack list
// (innermost first).
struct StackTable {
  Column<StackId> parent;
  Column<StringId> frame;
  Column<uint32_t> depth;

  StackTable() : parent(1, StackId(0)), frame(1, StringId(0)), depth(1, 0) {}
  size_t size() const { return parent.size(); }
};

// ForEachColumn(table, f) calls f(name, column) for every column of an EventTable, MemoryTable,
// FlowTable or StackTable (const or not), in declaration order. Everything that handles whole
// rows goes through it: TraceBuilder::Finish's sort, FilterTrace, the native format's reader,
// writer and text twin. A column added to a table goes here too (tests/unit/trace_model_test.cc
// fails until it does). The order numbers the native format's sections: append, never reorder.
template <typename Table, typename F>
std::enable_if_t<std::is_same_v<std::remove_const_t<Table>, EventTable>> ForEachColumn(Table& t,
                                                                                       F&& f) {
  f("name", t.name);
  f("trace_name", t.trace_name);
  f("category", t.category);
  f("kind", t.kind);
  f("thread", t.thread);
  f("start_ns", t.start_ns);
  f("end_ns", t.end_ns);
  f("external_id", t.external_id);
  f("correlation", t.correlation);
  f("sequence_nr", t.sequence_nr);
  f("fwd_thread", t.fwd_thread);
  f("input_shapes", t.input_shapes);
  f("stack", t.stack);
  f("device", t.device);
  f("comm", t.comm);
  f("flop_inputs", t.flop_inputs);
}

template <typename Table, typename F>
std::enable_if_t<std::is_same_v<std::remove_const_t<Table>, MemoryTable>> ForEachColumn(Table& t,
                                                                                        F&& f) {
  f("ts_ns", t.ts_ns);
  f("thread", t.thread);
  f("bytes", t.bytes);
  f("addr", t.addr);
  f("total_allocated", t.total_allocated);
  f("total_reserved", t.total_reserved);
  f("device_type", t.device_type);
  f("device_id", t.device_id);
}

template <typename Table, typename F>
std::enable_if_t<std::is_same_v<std::remove_const_t<Table>, FlowTable>> ForEachColumn(Table& t,
                                                                                      F&& f) {
  f("id", t.id);
  f("ts_ns", t.ts_ns);
  f("thread", t.thread);
  f("category", t.category);
  f("is_start", t.is_start);
}

template <typename Table, typename F>
std::enable_if_t<std::is_same_v<std::remove_const_t<Table>, StackTable>> ForEachColumn(Table& t,
                                                                                       F&& f) {
  f("parent", t.parent);
  f("frame", t.frame);
  f("depth", t.depth);
}

// The time that relative times count from: PyTorch's FunctionEvent times (float microseconds
// from the profiler's start), --window, and the bare-array layout a trace is written back in.
enum class TimeOriginKind : uint8_t {
  kRelative,    // the importer read times already relative to the profiler's start (PyTorch's
                // bare-array export): the origin is 0
  kTraceSpan,   // the profiler's own span (cat "Trace") starts the clock
  kFirstEvent,  // a trace without that span: the first event's start (0 without events)
};

struct TimeOrigin {
  TimeOriginKind kind = TimeOriginKind::kFirstEvent;
  int64_t ns = 0;  // on the trace's clock
};

struct TraceMetadata {
  TraceFormat format = TraceFormat::kUnknown;
  // The importer sets kind kRelative when its times are relative; WorkOutTimeOrigin gives every
  // other trace its origin from the events once they are known.
  TimeOrigin origin;
  int64_t schema_version = -1;
  int64_t base_time_ns = kNoId;  // baseTimeNanoseconds
  std::string display_time_unit;
  // What wrote the file, when it says: "NVIDIA Nsight Systems 2026.2.1.210 (export schema
  // 3.25.0)". Empty when the file does not name its writer.
  std::string producer;
  int64_t rank = -1;  // distributedInfo
  int64_t world_size = -1;
  std::string backend;
  std::vector<std::string> devices;  // deviceProperties[].name
  // The profiler options the header says were on (Kineto names each only when it was):
  // profile_memory, record_shapes, with_stack, with_flops, with_modules.
  bool profile_memory = false;
  bool record_shapes = false;
  bool with_stack = false;
  bool with_flops = false;
  bool with_modules = false;
  // Kernels belong to the CPU events that enclose their launch, and launches and device activities
  // are not events of their own (PyTorch's legacy and nvprof profiles; docs/semantics.md).
  bool legacy_kernels = false;
  uint64_t input_bytes = 0;
  uint64_t compressed_bytes = 0;  // 0 when not compressed
  uint64_t lost_bytes = 0;        // bytes after the last complete event of a truncated input
  uint64_t raw_events = 0;        // events read, of every phase
  uint64_t metadata_events = 0;   // ph M
  uint64_t instant_events = 0;    // ph i / I other than [memory]
  // Set when the trace was loaded from profana's own file ("profana-native 1 (N bytes)"); the
  // fields above then describe the original input, so every analysis prints what it did there.
  std::string container;
};

struct Trace {
  Trace() = default;
  Trace(Trace&&) = default;
  Trace& operator=(Trace&&) = default;
  Trace& operator=(const Trace&) = delete;
  // A deep copy of every field (the string pool keeps its ids). Explicit, because a trace is
  // large and a copy is rarely what is wanted.
  Trace Clone() const { return Trace(*this); }

  StringPool strings;
  std::vector<ThreadInfo> threads;
  EventTable events;
  MemoryTable memory;
  FlowTable flows;
  StackTable stacks;
  TraceMetadata metadata;
  Diagnostics diagnostics;
  // What columns that are views (Column::View) read from, kept alive with the trace: the mapped
  // native file they came from. Empty when every column owns its values.
  std::shared_ptr<const void> backing;

  std::string_view str(StringId id) const { return strings.Get(id); }
  // PyTorch's stack list for a StackId: innermost frame first.
  std::vector<StringId> StackFrames(StackId id) const;

 private:
  Trace(const Trace&) = default;
};

// Columns a command says it never reads. A load told so keeps each as one value (Column::Uniform)
// with the right number of rows, not a value per row: a table that is not grouped by input shape
// or stack holds no input shapes, stacks or collectives, and no command but info and convert
// holds the flows. What the importer checks and counts does not change.
struct UnreadColumns {
  bool input_shapes = false;
  bool stacks = false;  // stack, and sequence_nr and fwd_thread, which carry stacks to backward ops
  bool collectives = false;  // comm
  bool flows = false;        // every column of the flow table (its rows are still counted)
  // [memory] records' addr, total_allocated, total_reserved and device_id (their times, threads,
  // bytes and device types are read)
  bool memory_details = false;
};

// Makes the columns `unread` names uniform: events' and memory records' at their absent values,
// flows' at 0.
void LeaveUnread(const UnreadColumns& unread, Trace* trace);

// Sets metadata.origin from the (sorted) events, unless the times are relative: the profiler's
// span, else the first event. TraceBuilder::Finish, the native readers and FilterTrace (whose
// first event may change) call it once their events are final.
void WorkOutTimeOrigin(Trace* trace);

}  // namespace profana
