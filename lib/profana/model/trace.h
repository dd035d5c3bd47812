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
#include <vector>

#include "profana/base/column.h"
#include "profana/base/ids.h"
#include "profana/base/string_pool.h"
#include "profana/model/diagnostics.h"

namespace profana {

constexpr int64_t kNoId = std::numeric_limits<int64_t>::min();
// Every time in a Trace lies within +-kMaxTimeNs (about 146 years either side of 0), so the
// difference of any two times, and a time plus such a difference, fits in int64_t. Importers
// count and skip events outside it instead of letting a pass overflow.
constexpr int64_t kMaxTimeNs = int64_t{1} << 62;
inline bool TimeInRange(int64_t ns) { return ns >= -kMaxTimeNs && ns <= kMaxTimeNs; }

// What an activity is, from its category; Kineto spelled these differently over the years
// ("Operator" / "cpu_op", "Runtime" / "cuda_runtime", "Kernel" / "kernel", ...).
enum class ActivityKind : uint8_t {
  kCpuOp,              // cpu_op, Operator, and events of the bare-array export
  kUserAnnotation,     // user_annotation: record_function labels, ProfilerStep#N
  kRuntime,            // cuda_runtime, Runtime, mtia_runtime: launches happen here
  kDriver,             // cuda_driver
  kCpuInstant,         // cpu_instant_event (other than [memory])
  kPythonFunction,     // python_function: with_stack Python frames, not FunctionEvents
  kCpuOther,           // overhead and other host-side categories
  kKernel,             // kernel, Kernel
  kMemcpy,             // gpu_memcpy, Memcpy
  kMemset,             // gpu_memset, Memset
  kGpuUserAnnotation,  // gpu_user_annotation: a CPU label projected on a stream
  kDeviceOther,  // other device-side activity (mtia_ccp_events, cuda_profiler_range, cuda_sync)
  kTraceSpan,    // cat "Trace": the profiler's own whole-trace span
};

const char* ActivityKindName(ActivityKind kind);
bool IsDeviceActivity(ActivityKind kind);

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

  size_t size() const { return start_ns.size(); }
};

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

struct TraceMetadata {
  std::string format;  // "kineto-json", "chrome-json-array", ...
  int64_t schema_version = -1;
  int64_t base_time_ns = kNoId;  // baseTimeNanoseconds
  std::string display_time_unit;
  int64_t rank = -1;  // distributedInfo
  int64_t world_size = -1;
  std::string backend;
  std::vector<std::string> devices;  // deviceProperties[].name
  bool profile_memory = false;       // the header says memory was recorded
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

// What BuildFunctionEvents works out from the events (which become FunctionEvents, the op tree
// after duplicate removal, kernel and memory attribution), stored by `convert` in a native file so
// that analyses of it need not work it out again (docs/native-format.md, "function event index").
// Only a native file fills it; any change to the events (filters) drops it.
// passes/function_events.h defines the columns; they are FunctionEventList's columns of the same
// names. Bump when BuildFunctionEvents would decide anything differently (the origin of PyTorch's
// float times included, which cuda_total_us depends on), or the columns change: a file with an
// index of another version is analysed from its events instead. Version 2 added the CUDA totals.
constexpr uint32_t kFunctionEventIndexVersion = 2;

struct FunctionEventIndex {
  uint32_t version = 0;     // 0 = absent; else the kFunctionEventIndexVersion that wrote it
  Column<uint32_t> source;  // trace event, or UINT32_MAX for a [memory] event
  Column<uint32_t> synthetic_record;  // the memory record of each [memory] event, in order
  Column<uint8_t> device_type;        // 0 CPU, 1 CUDA
  Column<uint8_t> scope;
  Column<int32_t> parent;
  Column<uint32_t> child_begin, child_index;
  Column<uint32_t> kernel_begin, kernel_index;
  Column<int64_t> cpu_memory, cuda_memory;
  // Each event's cuda_time_total, exact and in PyTorch's floats (passes/event_times.h): the one
  // time that sums a whole subtree, so the one worth storing.
  Column<int64_t> cuda_total_ns;
  Column<double> cuda_total_us;
  uint64_t removed_duplicates = 0, kernels_attributed = 0, kernels_unattributed = 0,
           external_id_mismatches = 0;

  bool present() const { return version != 0; }
};

struct Trace {
  StringPool strings;
  std::vector<ThreadInfo> threads;
  EventTable events;
  MemoryTable memory;
  FlowTable flows;
  StackTable stacks;
  TraceMetadata metadata;
  Diagnostics diagnostics;
  FunctionEventIndex function_index;
  // What columns that are views (Column::View) read from, kept alive with the trace: the mapped
  // native file they came from. Empty when every column owns its values.
  std::shared_ptr<const void> backing;

  std::string_view str(StringId id) const { return strings.Get(id); }
  // PyTorch's stack list for a StackId: innermost frame first.
  std::vector<StringId> StackFrames(StackId id) const;
};

}  // namespace profana
