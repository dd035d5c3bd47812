#include "profana/io/native_reader.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "fmt/format.h"
#include "profana/base/byte_reader.h"
#include "profana/base/crc32c.h"
#include "profana/base/parallel.h"
#include "profana/base/utf8.h"
#include "profana/io/native_format.h"
#include "profana/io/native_records.h"
#include "profana/model/trace_sums.h"

namespace profana::native {
namespace {

struct Entry {
  uint32_t id;
  uint32_t flags;
  uint64_t offset;
  uint64_t size;
  uint32_t crc;
};

std::string SectionName(uint32_t id) {
  switch (id) {
    case kStrings:
      return "strings";
    case kMetadata:
      return "metadata";
    case kDiagnostics:
      return "diagnostics";
    case kThreads:
      return "threads";
    case kFunctionIndex:
      return "function_index";
    default:
      break;
  }
  std::string name = fmt::format("0x{:x}", id);
  Trace empty;
  FunctionEventIndex empty_index;
  auto match = [&](const ColumnInfo& c, auto&) {
    if (c.id == id) name = fmt::format("{}.{}", c.table, c.name);
  };
  ForEachColumnSection(empty, match);
  ForEachIndexColumnSection(empty_index, match);
  return name;
}

// The first row below n for which wrong(row) holds, or n. Every row is tested first in a loop
// without exits, which the compiler vectorises for the simple tests used here; only when one
// fails is the row looked for, so a good file pays one pass per check.
template <typename Wrong>
size_t FirstWrong(size_t n, Wrong wrong) {
  unsigned any = 0;  // not bool: GCC vectorises an OR over unsigned, not over bool
  for (size_t i = 0; i < n; ++i) any |= wrong(i);
  if (!any) return n;
  size_t i = 0;
  while (!wrong(i)) ++i;
  return i;
}

Status Bad(ErrorCode code, const std::string& name, const std::string& what) {
  return Status(code, fmt::format("{}: {}", name, what));
}

// Strings that were not UTF-8 (a file another program wrote, or one written before profana
// checked its text): each is read with U+FFFD for its invalid sequences and counted as a
// kInvalidString diagnostic, as the importers count such text.
struct RepairedStrings {
  uint64_t count = 0;
  std::vector<std::string> samples;
  void AddTo(Diagnostics* d) const {
    for (const std::string& sample : samples)
      d->Add(DiagnosticKind::kInvalidString, UINT64_MAX, -1, sample);
    d->AddUnsampled(DiagnosticKind::kInvalidString, count - samples.size());
  }
};

Status ReadStrings(std::string_view bytes, StringPool* pool, RepairedStrings* repaired) {
  ByteReader r(bytes);
  uint64_t count = r.U64();
  if (!r.ok() || count == 0 || count > UINT32_MAX || count + 1 > r.remaining() / 8)
    return Status(ErrorCode::kMalformed,
                  fmt::format("string count {} does not fit the section", count));
  const char* offsets = bytes.data() + 8;
  r.Skip((count + 1) * 8);
  std::string_view text = bytes.substr(r.offset());
  uint64_t prev = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t begin, end;
    std::memcpy(&begin, offsets + i * 8, 8);
    std::memcpy(&end, offsets + (i + 1) * 8, 8);
    if (begin != prev || end < begin || end > text.size())
      return Status(
          ErrorCode::kMalformed,
          fmt::format("string {}: offsets {}..{} out of order or past the {} bytes of text", i,
                      begin, end, text.size()));
    prev = end;
    std::string_view s = text.substr(begin, end - begin);
    if (i == 0) {
      if (!s.empty()) return Status(ErrorCode::kMalformed, "string 0 is not empty");
      continue;
    }
    std::string scratch;
    size_t sequences = 0;
    s = ToValidUtf8(s, &scratch, &sequences);
    if (sequences && repaired->count++ < Diagnostics::kMaxSamplesPerKind)
      repaired->samples.push_back(
          fmt::format("section strings, string {}: text that is not UTF-8 ({} invalid byte "
                      "sequence{} kept as U+FFFD)",
                      i, sequences, sequences == 1 ? "" : "s"));
    // Ids are positions: a string twice (or an empty one) would shift every id after it.
    if (pool->Intern(s).value != i)
      return Status(
          ErrorCode::kMalformed,
          fmt::format("string {} is empty or repeats an earlier one{}", i,
                      sequences ? " (once its bytes that are not UTF-8 are replaced)" : ""));
  }
  if (prev != text.size()) return Status(ErrorCode::kMalformed, "bytes after the last string");
  return Status::Ok();
}

}  // namespace

bool SniffNative(std::string_view first_bytes) { return first_bytes.substr(0, 8) == kMagicView; }

Status ValidateTables(const Trace& t) {
  const uint64_t strings = t.strings.size(), threads = t.threads.size(), stacks = t.stacks.size();
  for (size_t i = 0; i < t.threads.size(); ++i) {
    const ThreadInfo& th = t.threads[i];
    for (StringId s : {th.pid_text, th.tid_text, th.name, th.process_name})
      if (s.value >= strings)
        return Status(ErrorCode::kMalformed,
                      fmt::format("section threads row {}: string {} out of range ({} strings)", i,
                                  s.value, strings));
  }
  Status status;
  const size_t device_args = t.device_args.size();
  ForEachColumnSection(t, [&](const ColumnInfo& c, const auto& column) {
    if (!status.ok()) return;
    size_t want = c.id < kMemoryBase       ? t.events.size()
                  : c.id < kFlowsBase      ? t.memory.size()
                  : c.id < kStacksBase     ? t.flows.size()
                  : c.id < kDeviceArgsBase ? t.stacks.size()
                                           : device_args;
    if (column.size() != want) {
      status = Status(ErrorCode::kMalformed,
                      fmt::format("section {}.{}: {} rows, other columns of the table have {}",
                                  c.table, c.name, column.size(), want));
      return;
    }
    using T = std::decay_t<decltype(column[0])>;
    // A column kept as one value (a file that predates it) has that value to check, once.
    const size_t n = column.is_array() ? column.size() : std::min<size_t>(column.size(), 1);
    const auto* data = column.data();  // a plain pointer, so that the scan vectorises
    if constexpr (std::is_same_v<T, double>) {
      // On the bits: a double is finite when its exponent bits are not all ones.
      constexpr uint64_t kExponent = 0x7ff0000000000000ull;
      auto bits = [&](size_t i) {
        uint64_t b;
        std::memcpy(&b, &data[i], 8);
        return b;
      };
      size_t i = FirstWrong(n, [&](size_t i) { return (bits(i) & kExponent) == kExponent; });
      if (i < n)
        status =
            Status(ErrorCode::kMalformed,
                   fmt::format("section {}.{} row {}: not a finite number", c.table, c.name, i));
      return;
    } else {
      uint64_t limit = c.ref == Ref::kString       ? strings
                       : c.ref == Ref::kThread     ? threads
                       : c.ref == Ref::kStack      ? stacks
                       : c.ref == Ref::kKind       ? static_cast<uint64_t>(kLastActivityKind) + 1
                       : c.ref == Ref::kBool       ? 2
                       : c.ref == Ref::kCopyKind   ? static_cast<uint64_t>(kLastCopyKind) + 1
                       : c.ref == Ref::kMemoryKind ? static_cast<uint64_t>(kLastMemoryKind) + 1
                       : c.ref == Ref::kDeviceArgs ? device_args
                                                   : 0;
      if (limit == 0 && c.ref != Ref::kDeviceArgs) return;
      auto value = [&](size_t i) -> uint64_t {
        if constexpr (std::is_integral_v<T> || std::is_enum_v<T>)
          return static_cast<uint64_t>(data[i]);
        else
          return data[i].value;
      };
      // kNoDeviceArgs is the one value past the device args' rows an event may hold.
      uint64_t none = c.ref == Ref::kDeviceArgs ? kNoDeviceArgs : UINT64_MAX;
      size_t i = FirstWrong(n, [&](size_t i) { return (value(i) >= limit) & (value(i) != none); });
      if (i == n) return;
      status = Status(ErrorCode::kMalformed,
                      fmt::format("section {}.{} row {}: value {} out of range (must be below {})",
                                  c.table, c.name, i, value(i), limit));
    }
  });
  PROFANA_RETURN_IF_ERROR(status);
  const StackTable& st = t.stacks;
  if (st.size() == 0 || st.parent[0].value != 0 || st.frame[0].value != 0 || st.depth[0] != 0)
    return Status(ErrorCode::kMalformed, "section stacks row 0: must be the empty stack (0, 0, 0)");
  for (size_t i = 1; i < st.size(); ++i) {
    // Parents before children: walking parents always ends at the root, never loops.
    if (st.parent[i].value >= i || st.depth[i] != st.depth[st.parent[i].value] + 1)
      return Status(
          ErrorCode::kMalformed,
          fmt::format(
              "section stacks row {}: parent {} must be an earlier row, depth {} its depth + 1", i,
              st.parent[i].value, st.depth[i]));
  }
  // Memory records and flows are timed like events: a time beyond +-2^62 would collide with the
  // INT64_MAX / INT64_MIN placeholders the passes use for "none" and "end of list".
  for (const auto& [table, column] :
       {std::pair{"memory", &t.memory.ts_ns}, std::pair{"flows", &t.flows.ts_ns}}) {
    const int64_t* ts = column->data();
    size_t i = FirstWrong(column->size(), [&](size_t i) { return !TimeInRange(ts[i]); });
    if (i < column->size())
      return Status(ErrorCode::kMalformed,
                    fmt::format("section {}.ts_ns row {}: time {} out of range (+-2^62 ns, as "
                                "every importer keeps)",
                                table, i, ts[i]));
  }
  const EventTable& e = t.events;
  const int64_t* start = e.start_ns.data();
  const int64_t* end = e.end_ns.data();
  // Bitwise operators, and row 0 compared with itself, keep the test free of branches.
  size_t i = FirstWrong(e.size(), [&](size_t i) {
    size_t p = i - (i > 0);
    bool order = (start[i] < start[p]) | ((start[i] == start[p]) & (end[i] > end[p]));
    return (end[i] < start[i]) | !TimeInRange(start[i]) | !TimeInRange(end[i]) | order;
  });
  if (i == e.size()) return Status::Ok();
  if (end[i] < start[i])
    return Status(ErrorCode::kMalformed,
                  fmt::format("section events row {}: ends before it starts", i));
  if (!TimeInRange(start[i]) || !TimeInRange(end[i]))
    return Status(
        ErrorCode::kMalformed,
        fmt::format("section events row {}: time out of range (+-2^62 ns, as every importer keeps)",
                    i));
  return Status(ErrorCode::kMalformed,
                fmt::format("section events row {}: not in (start, -end) order", i));
}

Status ValidateFunctionIndex(const Trace& t, const FunctionEventIndex& x) {
  const size_t n = x.source.size(), events = t.events.size(), records = t.memory.size();
  auto bad = [](const char* column, size_t row, const std::string& what) {
    return Status(ErrorCode::kMalformed,
                  fmt::format("section function_index.{} row {}: {}", column, row, what));
  };
  auto rows = [&](const char* column, size_t have, size_t want) {
    return have == want
               ? Status::Ok()
               : Status(ErrorCode::kMalformed, fmt::format("section function_index.{}: {} rows, {} "
                                                           "expected from function_index.source",
                                                           column, have, want));
  };
  PROFANA_RETURN_IF_ERROR(rows("device_type", x.device_type.size(), n));
  PROFANA_RETURN_IF_ERROR(rows("scope", x.scope.size(), n));
  PROFANA_RETURN_IF_ERROR(rows("parent", x.parent.size(), n));
  PROFANA_RETURN_IF_ERROR(rows("child_begin", x.child_begin.size(), n + 1));
  PROFANA_RETURN_IF_ERROR(rows("kernel_begin", x.kernel_begin.size(), n + 1));
  PROFANA_RETURN_IF_ERROR(rows("cpu_memory", x.cpu_memory.size(), n));
  PROFANA_RETURN_IF_ERROR(rows("cuda_memory", x.cuda_memory.size(), n));
  PROFANA_RETURN_IF_ERROR(rows("cuda_total_ns", x.cuda_total_ns.size(), n));
  PROFANA_RETURN_IF_ERROR(rows("cuda_total_us", x.cuda_total_us.size(), n));
  // Plain pointers, so that the scans vectorise.
  const EventId* source = x.source.data();
  const uint8_t* device = x.device_type.data();
  const uint8_t* scope = x.scope.data();
  const FnEventId* parent = x.parent.data();
  size_t i = FirstWrong(n, [&](size_t i) {
    return (source[i].value >= events) & (source[i].valid() | (device[i] != 0));
  });
  if (i < n)
    return bad("source", i,
               fmt::format("event {} out of range ({} events), or a [memory] event on a device",
                           source[i].value, events));
  size_t synthetic = 0;
  for (size_t i = 0; i < n; ++i) synthetic += !source[i].valid();
  if (synthetic != x.synthetic_record.size())
    return bad(
        "synthetic_record", 0,
        fmt::format("{} records for {} [memory] events", x.synthetic_record.size(), synthetic));
  i = FirstWrong(synthetic, [&](size_t i) { return x.synthetic_record[i] >= records; });
  if (i < synthetic)
    return bad("synthetic_record", i,
               fmt::format("record {} out of range ({} records)", x.synthetic_record[i], records));
  i = FirstWrong(n, [&](size_t i) { return (device[i] > 1) | (scope[i] > 1); });
  if (i < n) return bad("device_type", i, "device type and scope must be 0 or 1");
  // Parents come before their children, so every walk up the tree ends. None() is stored as -1.
  i = FirstWrong(n, [&](size_t i) { return parent[i].valid() & (parent[i].value >= i); });
  if (i < n)
    return bad("parent", i,
               fmt::format("parent {} must be -1 or an earlier event",
                           static_cast<int32_t>(parent[i].value)));
  auto check_csr = [&](const Column<uint32_t>& begin, const auto& index, const char* begin_name,
                       const char* index_name, size_t limit) -> Status {
    const uint32_t* b = begin.data();
    size_t i = begin[0] != 0 ? 0 : FirstWrong(n, [&](size_t i) { return b[i + 1] < b[i]; });
    if (i < n || begin[n] != index.size())
      return bad(
          begin_name, i,
          fmt::format("offsets must rise from 0 to the {} rows of {}", index.size(), index_name));
    const auto* v = index.data();
    i = FirstWrong(index.size(), [&](size_t i) { return v[i].value >= limit; });
    if (i < index.size())
      return bad(index_name, i,
                 fmt::format("{} out of range (must be below {})", index[i].value, limit));
    return Status::Ok();
  };
  PROFANA_RETURN_IF_ERROR(check_csr(x.child_begin, x.child_index, "child_begin", "child_index", n));
  // Child lists must agree with `parent`: each child listed once, under its own parent, and every
  // event with a parent listed. Parents come before children, so walks down the lists end; and
  // without repeats a walk visits each event once (a child listed twice at every level of a deep
  // chain would otherwise make a tree of 2^depth lines).
  const uint32_t* child_begin = x.child_begin.data();
  const FnEventId* child_index = x.child_index.data();
  std::vector<uint8_t> listed(n, 0);
  for (size_t r = 0; r < n; ++r) {
    for (uint32_t k = child_begin[r]; k < child_begin[r + 1]; ++k) {
      uint32_t c = child_index[k].value;
      if (parent[c].value != r)
        return bad("child_index", k,
                   fmt::format("event {} is listed as a child of event {}, but its parent is {}", c,
                               r, static_cast<int32_t>(parent[c].value)));
      if (listed[c])
        return bad("child_index", k,
                   fmt::format("event {} is listed twice as a child of event {}", c, r));
      listed[c] = 1;
    }
  }
  i = FirstWrong(n, [&](size_t i) { return parent[i].valid() & !listed[i]; });
  if (i < n)
    return bad("parent", i,
               fmt::format("event {} has parent {} but is missing from its child list", i,
                           parent[i].value));
  PROFANA_RETURN_IF_ERROR(
      check_csr(x.kernel_begin, x.kernel_index, "kernel_begin", "kernel_index", events));
  // Sums of durations, which are never negative. On the bits (which vectorises): a double is
  // positive and finite when its bits are below infinity's, and NaN and the negatives lie above.
  const int64_t* cuda_ns = x.cuda_total_ns.data();
  const double* cuda_us = x.cuda_total_us.data();
  constexpr uint64_t kInfinityBits = 0x7ff0000000000000ull;
  i = FirstWrong(n, [&](size_t i) {
    uint64_t bits;
    std::memcpy(&bits, &cuda_us[i], 8);
    return (cuda_ns[i] < 0) | (bits >= kInfinityBits);
  });
  if (i < n)
    return bad("cuda_total_ns", i,
               fmt::format("CUDA total {} ns / {} us must be a finite sum of durations", cuda_ns[i],
                           cuda_us[i]));
  // Rows of key averages add them up: together they stay within what profana's sums hold
  // (model/trace_sums.h), as the totals worked out from the events do.
  __int128 sum = 0;
  for (i = 0; i < n && (sum += cuda_ns[i]) <= kMaxTraceTotal;) ++i;
  if (i < n)
    return bad("cuda_total_ns", i,
               "the CUDA totals add up past the 2^61 ns (73 years) that profana's sums hold");
  return Status::Ok();
}

namespace {

// The file's sections as the section table lists them, checked (bounds, overlaps, checksums) and
// named in messages: "<file>: section <name> at byte N: ...".
class Sections {
 public:
  Sections(std::string_view bytes, const std::string& name) : bytes_(bytes), name_(name) {}

  // Reads the header and the section table and checks every section's place and checksum.
  Status Open();

  const std::vector<Entry>& entries() const { return entries_; }
  uint32_t version() const { return version_; }
  const Entry* Find(uint32_t id) const {
    for (const Entry& e : entries_)
      if (e.id == id) return &e;
    return nullptr;
  }
  // The bytes of a section the format requires.
  Status Get(uint32_t id, std::string_view* out) const {
    const Entry* e = Find(id);
    if (!e)
      return Fail(ErrorCode::kMalformed,
                  fmt::format("section {} (id 0x{:x}) is missing", SectionName(id), id));
    *out = bytes_.substr(e->offset, e->size);
    return Status::Ok();
  }
  // A problem inside a section, located at the section.
  Status InSection(uint32_t id, const Status& s) const {
    return Fail(s.code(), fmt::format("section {} at byte {}: {}", SectionName(id),
                                      Find(id)->offset, s.message()));
  }
  Status Fail(ErrorCode code, const std::string& what) const { return Bad(code, name_, what); }

 private:
  Status ReadHeader(uint32_t* count, uint64_t* table_end);
  Status CheckPlaces(uint64_t table_end) const;
  Status CheckChecksums() const;

  std::string_view bytes_;
  const std::string& name_;
  std::vector<Entry> entries_;
  uint32_t version_ = 0;
};

Status Sections::Open() {
  if (!SniffNative(bytes_))
    return Fail(ErrorCode::kBadMagic, "byte 0: not a profana native file (bad magic)");
  uint32_t count = 0;
  uint64_t table_end = 0;
  PROFANA_RETURN_IF_ERROR(ReadHeader(&count, &table_end));
  ByteReader r(bytes_.substr(table_end - uint64_t{kSectionEntrySize} * count));
  for (uint32_t i = 0; i < count; ++i) {
    Entry e;
    e.id = r.U32();
    e.flags = r.U32();
    e.offset = r.U64();
    e.size = r.U64();
    e.crc = r.U32();
    r.U32();
    entries_.push_back(e);
  }
  PROFANA_RETURN_IF_ERROR(CheckPlaces(table_end));
  return CheckChecksums();
}

// The header, and the section table's place and checksum.
Status Sections::ReadHeader(uint32_t* count, uint64_t* table_end) {
  ByteReader h(bytes_);
  h.Skip(8);
  uint32_t version = h.U32(), header_size = h.U32();
  version_ = version;
  *count = h.U32();
  h.U32();  // flags: none defined in version 1
  uint32_t table_crc = h.U32(), header_crc = h.U32();
  if (!h.ok())
    return Fail(ErrorCode::kTruncated,
                fmt::format("byte {}: file ends inside the header", bytes_.size()));
  // The version is checked first: its place is fixed forever, the rest of the header may change.
  if (version == 0 || version > kVersion)
    return Fail(ErrorCode::kUnsupportedVersion,
                fmt::format("byte 8: native format version {}; this profana reads version {} (a "
                            "newer profana wrote it)",
                            version, kVersion));
  if (Crc32c(bytes_.data(), 28) != header_crc)
    return Fail(ErrorCode::kMalformed, "byte 28: header checksum mismatch");
  if (header_size < kHeaderSize || *count > kMaxSections)
    return Fail(ErrorCode::kMalformed,
                fmt::format("byte 12: header size {} or section count {} out of range", header_size,
                            *count));
  *table_end = header_size + uint64_t{kSectionEntrySize} * *count;
  if (*table_end > bytes_.size())
    return Fail(ErrorCode::kTruncated,
                fmt::format("byte {}: file ends inside the section table (needs {} bytes)",
                            bytes_.size(), *table_end));
  if (Crc32c(bytes_.substr(header_size, *table_end - header_size)) != table_crc)
    return Fail(ErrorCode::kMalformed,
                fmt::format("byte {}: section table checksum mismatch", header_size));
  return Status::Ok();
}

// Bounds and overlaps, before any section is looked at.
Status Sections::CheckPlaces(uint64_t table_end) const {
  std::vector<const Entry*> by_offset;
  std::unordered_set<uint32_t> ids;
  for (const Entry& e : entries_) {
    std::string where =
        fmt::format("section {} (id 0x{:x}) at byte {}", SectionName(e.id), e.id, e.offset);
    if (!ids.insert(e.id).second)
      return Fail(ErrorCode::kMalformed, where + ": appears twice in the section table");
    if (e.offset < table_end || e.offset > bytes_.size() || e.size > bytes_.size() - e.offset)
      return Fail(e.offset + e.size > bytes_.size() && e.offset >= table_end
                      ? ErrorCode::kTruncated
                      : ErrorCode::kMalformed,
                  fmt::format("{}: {} bytes lie outside the file's {} bytes of sections", where,
                              e.size, bytes_.size()));
    if (e.size) by_offset.push_back(&e);  // an empty section overlaps nothing
  }
  std::sort(by_offset.begin(), by_offset.end(),
            [](const Entry* a, const Entry* b) { return a->offset < b->offset; });
  for (size_t i = 1; i < by_offset.size(); ++i)
    if (by_offset[i]->offset < by_offset[i - 1]->offset + by_offset[i - 1]->size)
      return Fail(
          ErrorCode::kMalformed,
          fmt::format("section {} at byte {} overlaps section {}", SectionName(by_offset[i]->id),
                      by_offset[i]->offset, SectionName(by_offset[i - 1]->id)));
  return Status::Ok();
}

// Checksums on every core (reading the file is most of a load), the biggest sections first; a
// mismatch is reported for the first damaged section in table order, whichever finished first.
Status Sections::CheckChecksums() const {
  std::vector<const Entry*> by_size;
  for (const Entry& e : entries_) by_size.push_back(&e);
  std::stable_sort(by_size.begin(), by_size.end(),
                   [](const Entry* a, const Entry* b) { return a->size > b->size; });
  std::vector<uint8_t> damaged(entries_.size(), 0);
  ParallelFor(by_size.size(), [&](size_t k) {
    const Entry& e = *by_size[k];
    damaged[&e - entries_.data()] = Crc32c(bytes_.data() + e.offset, e.size) != e.crc;
  });
  for (const Entry& e : entries_) {
    if (damaged[&e - entries_.data()])
      return Fail(ErrorCode::kMalformed,
                  fmt::format("section {} at byte {}: checksum mismatch (damaged file)",
                              SectionName(e.id), e.offset));
  }
  return Status::Ok();
}

// Hands one section to a column: a view of the file when `views` (the caller keeps the bytes
// alive), else a copy.
class ColumnLoader {
 public:
  ColumnLoader(const Sections& sections, bool views) : sections_(sections), views_(views) {}

  template <typename T>
  void operator()(const ColumnInfo& c, Column<T>& column) {
    if (!status_.ok()) return;
    std::string_view bytes;
    // A column the file's version predates, or an optional one it lacks: filled in later.
    if ((IsOptionalColumn(c) || SinceVersion(c) > sections_.version()) &&
        sections_.Find(c.id) == nullptr)
      return;
    if (Status st = sections_.Get(c.id, &bytes); !st.ok()) {
      status_ = st;
      return;
    }
    if (bytes.size() % sizeof(T)) {
      status_ = sections_.InSection(
          c.id, Status(ErrorCode::kMalformed,
                       fmt::format("{} bytes is not a whole number of {}-byte values", bytes.size(),
                                   sizeof(T))));
      return;
    }
    // Sections start 8-byte aligned in files profana writes; a damaged offset only costs a copy.
    if (views_ && reinterpret_cast<uintptr_t>(bytes.data()) % alignof(T) == 0) {
      column = Column<T>::View(reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T));
      return;
    }
    std::vector<T>& owned = column.owned();
    owned.resize(bytes.size() / sizeof(T));
    if (!bytes.empty()) std::memcpy(owned.data(), bytes.data(), bytes.size());
  }
  const Status& status() const { return status_; }

 private:
  const Sections& sections_;
  bool views_;
  Status status_;
};

// Strings, metadata, diagnostics, threads and the tables' columns.
Status ReadTables(const Sections& sections, bool views, Trace* trace) {
  Trace& t = *trace;
  std::string_view s;
  PROFANA_RETURN_IF_ERROR(sections.Get(kStrings, &s));
  RepairedStrings repaired;
  if (Status st = ReadStrings(s, &t.strings, &repaired); !st.ok())
    return sections.InSection(kStrings, st);
  PROFANA_RETURN_IF_ERROR(sections.Get(kMetadata, &s));
  uint64_t other_texts = 0;  // metadata and diagnostics' texts that were not UTF-8
  if (Status st = DecodeMetadata(s, &t.metadata, &other_texts); !st.ok())
    return sections.InSection(kMetadata, st);
  PROFANA_RETURN_IF_ERROR(sections.Get(kDiagnostics, &s));
  if (Status st = DecodeDiagnostics(s, &t.diagnostics, &other_texts); !st.ok())
    return sections.InSection(kDiagnostics, st);
  if (other_texts && repaired.count++ < Diagnostics::kMaxSamplesPerKind)
    repaired.samples.push_back(fmt::format(
        "sections metadata and diagnostics: {} text{} not UTF-8 (invalid byte sequences kept as "
        "U+FFFD)",
        other_texts, other_texts == 1 ? "" : "s"));
  repaired.AddTo(&t.diagnostics);
  PROFANA_RETURN_IF_ERROR(sections.Get(kThreads, &s));
  if (s.size() % sizeof(ThreadInfo))
    return sections.InSection(
        kThreads,
        Status(ErrorCode::kMalformed,
               fmt::format("{} bytes is not a whole number of 32-byte records", s.size())));
  t.threads.resize(s.size() / sizeof(ThreadInfo));
  if (!s.empty()) std::memcpy(t.threads.data(), s.data(), s.size());
  t.stacks.parent.clear();
  t.stacks.frame.clear();
  t.stacks.depth.clear();
  ColumnLoader load(sections, views);
  ForEachColumnSection(t, load);
  PROFANA_RETURN_IF_ERROR(load.status());
  // A file written before events.comm existed: no event has collective args.
  if (t.events.comm.size() == 0) t.events.comm = Column<StringId>::Uniform(t.events.size(), {});
  // One written before events.flop_inputs existed: no event has FLOP inputs.
  if (t.events.flop_inputs.size() == 0)
    t.events.flop_inputs = Column<StringId>::Uniform(t.events.size(), {});
  // A version 1 file: no event has device args.
  if (t.events.device_args.size() == 0)
    t.events.device_args = Column<uint32_t>::Uniform(t.events.size(), kNoDeviceArgs);
  return Status::Ok();
}

// A section flagged required that this profana does not know: the file needs a newer reader.
Status CheckRequiredSections(const Sections& sections) {
  for (const Entry& e : sections.entries()) {
    if ((e.flags & kSectionRequired) && SectionName(e.id).rfind("0x", 0) == 0)
      return sections.Fail(ErrorCode::kUnsupportedVersion,
                           fmt::format("section 0x{:x} at byte {} is required but unknown to this "
                                       "profana (convert it again with a newer profana)",
                                       e.id, e.offset));
  }
  return Status::Ok();
}

// The function event index, when the file has one of this index version. An index another
// profana version wrote may mean something else: analyses then work from the events, as for a
// file without one.
Result<std::optional<FunctionEventIndex>> ReadFunctionIndex(const Sections& sections, bool views) {
  const Entry* e = sections.Find(kFunctionIndex);
  if (!e) return std::optional<FunctionEventIndex>();
  std::string_view info;
  PROFANA_RETURN_IF_ERROR(sections.Get(kFunctionIndex, &info));
  ByteReader r(info);
  FunctionEventIndex x;
  x.version = r.U32();
  r.U32();
  x.removed_duplicates = r.U64();
  x.kernels_attributed = r.U64();
  x.kernels_unattributed = r.U64();
  x.external_id_mismatches = r.U64();
  if (!r.ok() || info.size() != kFunctionIndexSize)
    return sections.InSection(kFunctionIndex, Status(ErrorCode::kMalformed,
                                                     fmt::format("{} bytes, {} expected",
                                                                 info.size(), kFunctionIndexSize)));
  if (x.version != kFunctionEventIndexVersion) return std::optional<FunctionEventIndex>();
  ColumnLoader load(sections, views);
  ForEachIndexColumnSection(x, load);
  PROFANA_RETURN_IF_ERROR(load.status());
  return std::optional<FunctionEventIndex>(std::move(x));
}

}  // namespace

Result<LoadedTrace> ReadNative(std::string_view bytes, const std::string& name,
                               std::shared_ptr<const void> backing) {
  Sections sections(bytes, name);
  PROFANA_RETURN_IF_ERROR(sections.Open());
  LoadedTrace loaded;
  Trace& t = loaded.trace;
  bool views = backing != nullptr;
  PROFANA_RETURN_IF_ERROR(ReadTables(sections, views, &t));
  PROFANA_RETURN_IF_ERROR(CheckRequiredSections(sections));
  PROFANA_ASSIGN_OR_RETURN(loaded.function_index, ReadFunctionIndex(sections, views));
  // The events and the index are checked side by side (neither check reads what the other
  // checks); the events' error comes first when both are damaged.
  const std::optional<FunctionEventIndex>& index = loaded.function_index;
  Status checks[2];
  ParallelFor(index ? 2 : 1, [&](size_t k) {
    checks[k] = k == 0 ? ValidateTables(t) : ValidateFunctionIndex(t, *index);
  });
  for (const Status& st : checks)
    if (!st.ok()) return Bad(st.code(), name, st.message());
  RestoreTimeOrigin(&t);
  if (loaded.function_index) loaded.function_index->backing = backing;
  t.backing = std::move(backing);
  return loaded;
}

}  // namespace profana::native
