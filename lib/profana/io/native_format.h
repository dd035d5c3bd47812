// The native binary format's constants and its column list (docs/native-format.md is the spec).
// The column list drives the writer, the reader and the text twin alike, so the three cannot
// disagree about which vector of the Trace a section holds.
#pragma once

#include <cstdint>
#include <string_view>

#include "profana/model/trace.h"

namespace profana::native {

// "\x89PFA\r\n\x1a\n": a non-ASCII first byte (never text), then line-ending and EOF bytes that
// any text-mode transfer would damage visibly (PNG's trick).
constexpr char kMagic[8] = {'\x89', 'P', 'F', 'A', '\r', '\n', '\x1a', '\n'};
constexpr std::string_view kMagicView(kMagic, 8);
constexpr uint32_t kVersion = 1;
constexpr uint32_t kHeaderSize = 32;
constexpr uint32_t kSectionEntrySize = 32;
constexpr uint32_t kMaxSections = 4096;
constexpr uint32_t kSectionRequired =
    1;  // flags bit: a reader that does not know the id must refuse
constexpr std::string_view kTextMagic = "profana-native-text";

enum SectionId : uint32_t {
  kStrings = 1,      // u64 count, u64 offsets[count + 1], then the bytes; string 0 is ""
  kMetadata = 2,     // key/typed-value records (TraceMetadata)
  kDiagnostics = 3,  // counts and samples by diagnostic name
  kThreads = 4,  // ThreadInfo records: i64 pid, i64 tid, u32 pid_text, tid_text, name, process_name
  kFunctionIndex = 5,  // optional: u32 version, u32 0, u64 removed_duplicates, kernels_attributed,
                       // kernels_unattributed, external_id_mismatches; then the kIndexBase columns
  // Columns: 0x100 + 0x20 * table + column; a section is the raw little-endian array.
  kEventsBase = 0x120,
  kMemoryBase = 0x140,
  kFlowsBase = 0x160,
  kStacksBase = 0x180,
  kIndexBase = 0x1a0,  // the function event index's columns (optional, with kFunctionIndex)
};
constexpr size_t kFunctionIndexSize = 40;

// What the values of a column refer to; the reader checks each against its table's size.
enum class Ref : uint8_t { kNone, kString, kThread, kStack, kKind, kBool };

struct ColumnInfo {
  uint32_t id;        // section id
  const char* table;  // "events"
  const char* name;   // "start_ns"
  Ref ref;
};

// Calls f(const ColumnInfo&, std::vector<T>&) for every column of every table, in file order.
// Works on a const Trace too (f then gets const vectors). Threads are few and are stored as one
// section of fixed 32-byte records instead (kThreads).
template <typename TraceT, typename F>
void ForEachColumn(TraceT& t, F&& f) {
  auto& e = t.events;
  f(ColumnInfo{kEventsBase + 0, "events", "name", Ref::kString}, e.name);
  f(ColumnInfo{kEventsBase + 1, "events", "trace_name", Ref::kString}, e.trace_name);
  f(ColumnInfo{kEventsBase + 2, "events", "category", Ref::kString}, e.category);
  f(ColumnInfo{kEventsBase + 3, "events", "kind", Ref::kKind}, e.kind);
  f(ColumnInfo{kEventsBase + 4, "events", "thread", Ref::kThread}, e.thread);
  f(ColumnInfo{kEventsBase + 5, "events", "start_ns", Ref::kNone}, e.start_ns);
  f(ColumnInfo{kEventsBase + 6, "events", "end_ns", Ref::kNone}, e.end_ns);
  f(ColumnInfo{kEventsBase + 7, "events", "external_id", Ref::kNone}, e.external_id);
  f(ColumnInfo{kEventsBase + 8, "events", "correlation", Ref::kNone}, e.correlation);
  f(ColumnInfo{kEventsBase + 9, "events", "sequence_nr", Ref::kNone}, e.sequence_nr);
  f(ColumnInfo{kEventsBase + 10, "events", "fwd_thread", Ref::kNone}, e.fwd_thread);
  f(ColumnInfo{kEventsBase + 11, "events", "input_shapes", Ref::kString}, e.input_shapes);
  f(ColumnInfo{kEventsBase + 12, "events", "stack", Ref::kStack}, e.stack);
  f(ColumnInfo{kEventsBase + 13, "events", "device", Ref::kNone}, e.device);
  auto& m = t.memory;
  f(ColumnInfo{kMemoryBase + 0, "memory", "ts_ns", Ref::kNone}, m.ts_ns);
  f(ColumnInfo{kMemoryBase + 1, "memory", "thread", Ref::kThread}, m.thread);
  f(ColumnInfo{kMemoryBase + 2, "memory", "bytes", Ref::kNone}, m.bytes);
  f(ColumnInfo{kMemoryBase + 3, "memory", "addr", Ref::kNone}, m.addr);
  f(ColumnInfo{kMemoryBase + 4, "memory", "total_allocated", Ref::kNone}, m.total_allocated);
  f(ColumnInfo{kMemoryBase + 5, "memory", "total_reserved", Ref::kNone}, m.total_reserved);
  f(ColumnInfo{kMemoryBase + 6, "memory", "device_type", Ref::kNone}, m.device_type);
  f(ColumnInfo{kMemoryBase + 7, "memory", "device_id", Ref::kNone}, m.device_id);
  auto& fl = t.flows;
  f(ColumnInfo{kFlowsBase + 0, "flows", "id", Ref::kNone}, fl.id);
  f(ColumnInfo{kFlowsBase + 1, "flows", "ts_ns", Ref::kNone}, fl.ts_ns);
  f(ColumnInfo{kFlowsBase + 2, "flows", "thread", Ref::kThread}, fl.thread);
  f(ColumnInfo{kFlowsBase + 3, "flows", "category", Ref::kString}, fl.category);
  f(ColumnInfo{kFlowsBase + 4, "flows", "is_start", Ref::kBool}, fl.is_start);
  auto& st = t.stacks;
  f(ColumnInfo{kStacksBase + 0, "stacks", "parent", Ref::kStack}, st.parent);
  f(ColumnInfo{kStacksBase + 1, "stacks", "frame", Ref::kString}, st.frame);
  f(ColumnInfo{kStacksBase + 2, "stacks", "depth", Ref::kNone}, st.depth);
}

// The same for the function event index's columns (FunctionEventIndex), which a file may lack.
// Their ranges are checked by ValidateFunctionIndex, not by `ref`.
template <typename TraceT, typename F>
void ForEachIndexColumn(TraceT& t, F&& f) {
  auto& x = t.function_index;
  f(ColumnInfo{kIndexBase + 0, "function_index", "source", Ref::kNone}, x.source);
  f(ColumnInfo{kIndexBase + 1, "function_index", "synthetic_record", Ref::kNone},
    x.synthetic_record);
  f(ColumnInfo{kIndexBase + 2, "function_index", "device_type", Ref::kNone}, x.device_type);
  f(ColumnInfo{kIndexBase + 3, "function_index", "scope", Ref::kNone}, x.scope);
  f(ColumnInfo{kIndexBase + 4, "function_index", "parent", Ref::kNone}, x.parent);
  f(ColumnInfo{kIndexBase + 5, "function_index", "child_begin", Ref::kNone}, x.child_begin);
  f(ColumnInfo{kIndexBase + 6, "function_index", "child_index", Ref::kNone}, x.child_index);
  f(ColumnInfo{kIndexBase + 7, "function_index", "kernel_begin", Ref::kNone}, x.kernel_begin);
  f(ColumnInfo{kIndexBase + 8, "function_index", "kernel_index", Ref::kNone}, x.kernel_index);
  f(ColumnInfo{kIndexBase + 9, "function_index", "cpu_memory", Ref::kNone}, x.cpu_memory);
  f(ColumnInfo{kIndexBase + 10, "function_index", "cuda_memory", Ref::kNone}, x.cuda_memory);
  f(ColumnInfo{kIndexBase + 11, "function_index", "cuda_total_ns", Ref::kNone}, x.cuda_total_ns);
  f(ColumnInfo{kIndexBase + 12, "function_index", "cuda_total_us", Ref::kNone}, x.cuda_total_us);
}

// A thread as stored in the kThreads section: ThreadInfo's fields in declaration order.
static_assert(sizeof(ThreadInfo) == 32, "kThreads records are ThreadInfo verbatim");

}  // namespace profana::native
