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
#include "profana/model/device_args.h"
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
  // The row of DeviceArgsTable holding what this device activity recorded about itself (launch
  // configuration, copy size and kind); kNoDeviceArgs for every other event.
  Column<uint32_t> device_args;

  size_t size() const { return start_ns.size(); }
};

constexpr uint32_t kNoDeviceArgs = UINT32_MAX;

// What device work recorded about itself (model/device_args.h), one row per activity that recorded
// anything, in the order the importer read them; EventTable::device_args names an event's row.
// Unrecorded values are -1 (kUnknown for the kinds). A trace whose activities never record a field
// keeps that column as one value (Column::Uniform), and a trace without any keeps no rows.
struct DeviceArgsTable {
  Column<int32_t> grid_x, grid_y, grid_z;
  Column<int32_t> block_x, block_y, block_z;
  Column<int32_t> registers;      // per thread
  Column<int32_t> shared_memory;  // bytes per block, static and dynamic
  Column<double> blocks_per_sm;   // as recorded (Kineto: blocks / the device's SMs)
  Column<double> warps_per_sm;    // as recorded
  Column<double> occupancy;       // Kineto's "est. achieved occupancy %"
  Column<int64_t> bytes;          // copies and memsets
  Column<double> bandwidth;       // "memory bandwidth (GB/s)" as recorded
  Column<CopyKind> copy;
  Column<MemoryKind> copy_src;
  Column<MemoryKind> copy_dst;

  size_t size() const { return grid_x.size(); }
  // Row `r` as the importer handed it over.
  DeviceArgs Get(size_t r) const;
};

// Calls f(column, field) for every column of a DeviceArgsTable and the DeviceArgs field it holds,
// in ForEachColumn's order: the one place that pairs them (the builder's push, the absent values,
// Get).
template <typename Table, typename Args, typename F>
void ForEachDeviceArg(Table& t, Args& a, F&& f) {
  f(t.grid_x, a.grid[0]);
  f(t.grid_y, a.grid[1]);
  f(t.grid_z, a.grid[2]);
  f(t.block_x, a.block[0]);
  f(t.block_y, a.block[1]);
  f(t.block_z, a.block[2]);
  f(t.registers, a.registers);
  f(t.shared_memory, a.shared_memory);
  f(t.blocks_per_sm, a.blocks_per_sm);
  f(t.warps_per_sm, a.warps_per_sm);
  f(t.occupancy, a.occupancy);
  f(t.bytes, a.bytes);
  f(t.bandwidth, a.bandwidth);
  f(t.copy, a.copy);
  f(t.copy_src, a.copy_src);
  f(t.copy_dst, a.copy_dst);
}

inline DeviceArgs DeviceArgsTable::Get(size_t r) const {
  DeviceArgs a;
  ForEachDeviceArg(*this, a, [r](const auto& column, auto& field) { field = column[r]; });
  return a;
}

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
// FlowTable, StackTable or DeviceArgsTable (const or not), in declaration order. Everything that
// handles whole rows goes through it: TraceBuilder::Finish's sort, FilterTrace, the native format's
// reader, writer and text twin. A column added to a table goes here too
// (tests/unit/model/trace_model_test.cc fails until it does). The order numbers the native format's
// sections: append, never reorder.
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
  f("device_args", t.device_args);
}

template <typename Table, typename F>
std::enable_if_t<std::is_same_v<std::remove_const_t<Table>, DeviceArgsTable>> ForEachColumn(
    Table& t, F&& f) {
  f("grid_x", t.grid_x);
  f("grid_y", t.grid_y);
  f("grid_z", t.grid_z);
  f("block_x", t.block_x);
  f("block_y", t.block_y);
  f("block_z", t.block_z);
  f("registers", t.registers);
  f("shared_memory", t.shared_memory);
  f("blocks_per_sm", t.blocks_per_sm);
  f("warps_per_sm", t.warps_per_sm);
  f("occupancy", t.occupancy);
  f("bytes", t.bytes);
  f("bandwidth", t.bandwidth);
  f("copy", t.copy);
  f("copy_src", t.copy_src);
  f("copy_dst", t.copy_dst);
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

// A device as the trace's header describes it (Kineto's deviceProperties; nsys' TARGET_INFO_GPU).
// -1 where not recorded.
struct DeviceProperties {
  int64_t id = -1;
  int64_t num_sms = -1;
  int64_t compute_major = -1, compute_minor = -1;
  int64_t total_global_mem = -1;  // bytes
  int64_t max_threads_per_block = -1;
  int64_t max_threads_per_sm = -1;  // maxThreadsPerMultiprocessor
  int64_t regs_per_block = -1;
  int64_t regs_per_sm = -1;
  int64_t warp_size = -1;
  int64_t shared_mem_per_block = -1;
  int64_t shared_mem_per_block_optin = -1;
  int64_t shared_mem_per_sm = -1;
};

// Calls f(name, field) for every field of DeviceProperties but id, under Kineto's key names: the
// header reader, the native format and the Chrome-trace writer go through it.
template <typename Properties, typename F>
void ForEachDeviceProperty(Properties& p, F&& f) {
  f("numSms", p.num_sms);
  f("computeMajor", p.compute_major);
  f("computeMinor", p.compute_minor);
  f("totalGlobalMem", p.total_global_mem);
  f("maxThreadsPerBlock", p.max_threads_per_block);
  f("maxThreadsPerMultiprocessor", p.max_threads_per_sm);
  f("regsPerBlock", p.regs_per_block);
  f("regsPerMultiprocessor", p.regs_per_sm);
  f("warpSize", p.warp_size);
  f("sharedMemPerBlock", p.shared_mem_per_block);
  f("sharedMemPerBlockOptin", p.shared_mem_per_block_optin);
  f("sharedMemPerMultiprocessor", p.shared_mem_per_sm);
}

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
  // deviceProperties[] (id and numbers), one per entry of `devices`, in the same order.
  std::vector<DeviceProperties> device_properties;
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
  DeviceArgsTable device_args;
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
  // events' device_args and the DeviceArgsTable (launch configurations, copy sizes)
  bool device_args = false;
};

// Makes the columns `unread` names uniform: events' and memory records' at their absent values,
// flows' at 0.
void LeaveUnread(const UnreadColumns& unread, Trace* trace);

// A DeviceArgsTable of no rows whose columns each keep their unrecorded value alone, as a trace
// starts (so that a field no activity records stays one value).
DeviceArgsTable EmptyDeviceArgs();

// Sets metadata.origin from the (sorted) events, unless the times are relative: the profiler's
// span, else the first event. TraceBuilder::Finish, the native readers and FilterTrace (whose
// first event may change) call it once their events are final.
void WorkOutTimeOrigin(Trace* trace);

}  // namespace profana
