// The native binary format's constants and its column list (docs/native-format.md is the spec).
// The column list drives the writer, the reader and the text twin alike, so the three cannot
// disagree about which vector of the Trace a section holds.
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "profana/model/function_event_index.h"
#include "profana/model/trace.h"

namespace profana::native {

// "\x89PFA\r\n\x1a\n": a non-ASCII first byte (never text), then line-ending and EOF bytes that
// any text-mode transfer would damage visibly (PNG's trick).
constexpr char kMagic[8] = {'\x89', 'P', 'F', 'A', '\r', '\n', '\x1a', '\n'};
constexpr std::string_view kMagicView(kMagic, 8);
// Version 2 added the device args (events.device_args and the device_args table) and the device
// properties' metadata; version 1 files still read, with neither.
constexpr uint32_t kVersion = 2;
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
  kDeviceArgsBase = 0x1c0,
};
constexpr size_t kFunctionIndexSize = 40;

// What the values of a column refer to; the reader checks each against its table's size, its
// enum's range, or (kFinite) that a double is a finite number.
enum class Ref : uint8_t {
  kNone,
  kString,
  kThread,
  kStack,
  kKind,
  kBool,
  kDeviceArgs,  // a row of the device_args table, or kNoDeviceArgs
  kCopyKind,
  kMemoryKind,
  kFinite,
};

struct ColumnInfo {
  uint32_t id;        // section id
  const char* table;  // "events"
  const char* name;   // "start_ns"
  Ref ref;
};

// Columns added to version 1 after its first files: a file without the section reads as every
// row's default (events.comm: 0, no collective args; events.flop_inputs: 0, no FLOP inputs).
inline bool IsOptionalColumn(const ColumnInfo& c) {
  std::string_view name(c.name);
  return std::string_view(c.table) == "events" && (name == "comm" || name == "flop_inputs");
}

// The format version that added a column: files of earlier versions lack it, and read as having
// no device args.
inline uint32_t SinceVersion(const ColumnInfo& c) {
  bool device_args = c.id >= kDeviceArgsBase || (std::string_view(c.table) == "events" &&
                                                 std::string_view(c.name) == "device_args");
  return device_args ? 2 : 1;
}

// What a column's values refer to follows from their type; the one flag column is named.
template <typename T>
constexpr Ref RefOf(std::string_view column) {
  if constexpr (std::is_same_v<T, StringId>) return Ref::kString;
  if constexpr (std::is_same_v<T, ThreadId>) return Ref::kThread;
  if constexpr (std::is_same_v<T, StackId>) return Ref::kStack;
  if constexpr (std::is_same_v<T, ActivityKind>) return Ref::kKind;
  if constexpr (std::is_same_v<T, CopyKind>) return Ref::kCopyKind;
  if constexpr (std::is_same_v<T, MemoryKind>) return Ref::kMemoryKind;
  if constexpr (std::is_same_v<T, double>) return Ref::kFinite;
  if (column == "device_args") return Ref::kDeviceArgs;
  return column == "is_start" ? Ref::kBool : Ref::kNone;
}

// Calls f(const ColumnInfo&, Column<T>&) for every column of every table, in file order: the
// model's own column list (ForEachColumn in model/trace.h), each table's columns numbered from
// its base in that order. Works on a const Trace too (f then gets const columns). Threads are few
// and are stored as one section of fixed 32-byte records instead (kThreads).
template <typename TraceT, typename F>
void ForEachColumnSection(TraceT& t, F&& f) {
  auto table = [&](uint32_t base, const char* table_name, auto& columns) {
    uint32_t id = base;
    ForEachColumn(columns, [&](const char* name, auto& column) {
      using T = typename std::decay_t<decltype(column)>::value_type;
      f(ColumnInfo{id++, table_name, name, RefOf<T>(name)}, column);
    });
  };
  table(kEventsBase, "events", t.events);
  table(kMemoryBase, "memory", t.memory);
  table(kFlowsBase, "flows", t.flows);
  table(kStacksBase, "stacks", t.stacks);
  table(kDeviceArgsBase, "device_args", t.device_args);
}

// The same for the function event index's columns (FunctionEventIndex), which a file may lack,
// numbered from kIndexBase. Their ranges are checked by ValidateFunctionIndex, not by `ref`.
template <typename IndexT, typename F>
void ForEachIndexColumnSection(IndexT& x, F&& f) {
  uint32_t id = kIndexBase;
  ForEachColumn(x, [&](const char* name, auto& column) {
    f(ColumnInfo{id++, "function_index", name, Ref::kNone}, column);
  });
}

// A thread as stored in the kThreads section: ThreadInfo's fields in declaration order.
static_assert(sizeof(ThreadInfo) == 32, "kThreads records are ThreadInfo verbatim");

}  // namespace profana::native
