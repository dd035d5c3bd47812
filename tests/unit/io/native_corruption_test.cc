// A damaged native file is never trusted. The files are built byte by byte here from a small
// trace: cut at every byte (so at every section boundary), every byte flipped, bad magic, a future
// version, and files whose checksums are made right again but whose content lies (ids out of
// range, overlapping or missing sections, a looping stack trie). Each gives an error, never a
// crash (the ASan build runs this too).
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "fixtures.h"
#include "fmt/format.h"
#include "profana/base/crc32c.h"
#include "profana/io/native_format.h"
#include "profana/io/native_reader.h"
#include "profana/io/native_text.h"
#include "profana/io/native_writer.h"
#include "profana/model/trace_builder.h"
#include "profana/passes/function_events.h"
#include "test_util.h"

namespace {

using profana::ErrorCode;
using profana::kFunctionEventIndexVersion;
using profana::Trace;
using profana::TraceBuilder;

struct Entry {
  uint32_t id, flags;
  uint64_t offset, size;
};

uint32_t Get32(const std::string& b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
uint64_t Get64(const std::string& b, size_t at) {
  uint64_t v;
  std::memcpy(&v, b.data() + at, 8);
  return v;
}
void Put32(std::string* b, size_t at, uint32_t v) { std::memcpy(&(*b)[at], &v, 4); }
void Put64(std::string* b, size_t at, uint64_t v) { std::memcpy(&(*b)[at], &v, 8); }

// The section table, read independently of the reader (docs/native-format.md).
std::vector<Entry> Sections(const std::string& b) {
  std::vector<Entry> out;
  uint32_t count = Get32(b, 16);
  for (uint32_t i = 0; i < count; ++i) {
    size_t at = 32 + 32 * i;
    out.push_back({Get32(b, at), Get32(b, at + 4), Get64(b, at + 8), Get64(b, at + 16)});
  }
  return out;
}
size_t EntryAt(const std::string& b, uint32_t id) {
  for (uint32_t i = 0; i < Get32(b, 16); ++i)
    if (Get32(b, 32 + 32 * i) == id) return 32 + 32 * i;
  FAIL("no section " << id);
  return 0;
}

// Recomputes every checksum, so that only the lie the test planted is left to find.
void Reseal(std::string* b) {
  uint32_t count = std::min<uint32_t>(Get32(*b, 16), static_cast<uint32_t>((b->size() - 32) / 32));
  for (uint32_t i = 0; i < count; ++i) {
    size_t at = 32 + 32 * i;
    uint64_t off = Get64(*b, at + 8), size = Get64(*b, at + 16);
    if (off <= b->size() && size <= b->size() - off)
      Put32(b, at + 24, profana::Crc32c(b->data() + off, size));
  }
  Put32(b, 24, profana::Crc32c(b->data() + 32, size_t{32} * count));
  Put32(b, 28, profana::Crc32c(b->data(), 28));
}

std::string Error(const std::string& bytes) {
  auto r = profana::native::ReadNative(bytes, "t.pfa");
  return r.ok() ? "" : r.status().message();
}

// The error for `b` with value `index` of section `id` replaced and every checksum made right
// again.
template <typename T>
std::string Lie(const std::string& b, uint32_t id, size_t index, T value) {
  std::string d = b;
  uint64_t off = Get64(b, EntryAt(b, id) + 8);
  std::memcpy(&d[off + index * sizeof(value)], &value, sizeof(value));
  Reseal(&d);
  return Error(d);
}

}  // namespace

TEST_CASE("a native file reads back to the same bytes, and its layout is the documented one",
          "[native]") {
  std::string b = profana::native::WriteNative(profana::test::SmallTrace());
  REQUIRE(b.substr(0, 8) == std::string("\x89PFA\r\n\x1a\n", 8));
  CHECK(Get32(b, 8) == 2);
  CHECK(Get32(b, 12) == 32);
  auto t = profana::native::ReadNative(b, "t.pfa");
  REQUIRE(t.ok());
  CHECK_FALSE(t->function_index.has_value());
  CHECK(profana::native::WriteNative(t->trace) == b);
  CHECK(t->trace.str(t->trace.events.name[2]) == "gemm");
  for (const Entry& e : Sections(b)) CHECK(e.offset % 8 == 0);
}

TEST_CASE("a native file cut at any byte is refused", "[native]") {
  std::string b = profana::native::WriteNative(profana::test::SmallTrace());
  for (size_t n = 0; n < b.size(); ++n) {
    INFO("cut at byte " << n);
    std::string err = Error(b.substr(0, n));
    CHECK(err.rfind("t.pfa: ", 0) == 0);
  }
  // At each section boundary the message names the section.
  for (const Entry& e : Sections(b)) {
    if (e.size == 0) continue;
    INFO("cut inside section 0x" << std::hex << e.id);
    std::string err = Error(b.substr(0, e.offset + e.size - 1));
    CHECK(err.find("lie outside the file") != std::string::npos);
  }
}

TEST_CASE("a native file with any byte flipped is refused, except in padding", "[native]") {
  std::string b = profana::native::WriteNative(profana::test::SmallTrace());
  std::vector<bool> padding(b.size(), true);
  for (size_t i = 0; i < 32 + 32 * Sections(b).size(); ++i) padding[i] = false;
  for (const Entry& e : Sections(b))
    for (uint64_t i = e.offset; i < e.offset + e.size; ++i) padding[i] = false;
  int refused = 0;
  for (size_t i = 0; i < b.size(); ++i) {
    std::string damaged = b;
    damaged[i] ^= 0x5a;
    INFO("byte " << i);
    auto r = profana::native::ReadNative(damaged, "t.pfa");
    if (padding[i]) {
      // Padding carries nothing: the trace read is the same.
      REQUIRE(r.ok());
      CHECK(profana::native::WriteNative(r->trace) == b);
    } else {
      CHECK_FALSE(r.ok());
      refused += !r.ok();
    }
  }
  CHECK(refused > 1000);
  // A flip inside a section is a checksum mismatch naming it.
  std::string damaged = b;
  uint64_t off = Get64(b, EntryAt(b, profana::native::kEventsBase + 5) + 8);
  damaged[off + 3] ^= 1;
  CHECK(Error(damaged) ==
        fmt::format("t.pfa: section events.start_ns at byte {}: checksum mismatch (damaged file)",
                    off));
}

TEST_CASE(
    "bad magic, a future version and a required unknown section are refused with their own errors",
    "[native]") {
  std::string b = profana::native::WriteNative(profana::test::SmallTrace());
  std::string bad = b;
  bad[1] = 'X';
  auto r = profana::native::ReadNative(bad, "t.pfa");
  CHECK(r.status().code() == ErrorCode::kBadMagic);
  std::string future = b;
  Put32(&future, 8, 3);
  r = profana::native::ReadNative(future, "t.pfa");
  CHECK(r.status().code() == ErrorCode::kUnsupportedVersion);
  CHECK(r.status().message() ==
        "t.pfa: byte 8: native format version 3; this profana reads version 2 (a newer profana "
        "wrote it)");
  // An unknown optional section is skipped; marked required, it is refused.
  std::string unknown = b;
  size_t at = EntryAt(b, profana::native::kDiagnostics);
  Put32(&unknown, at, 0x7777);
  Reseal(&unknown);
  CHECK(Error(unknown).find("section diagnostics (id 0x3) is missing") != std::string::npos);
  std::string header_flip = b;
  header_flip[20] ^= 1;  // header flags, covered by the header checksum
  CHECK(Error(header_flip) == "t.pfa: byte 28: header checksum mismatch");
}

TEST_CASE("a resealed file that lies is still refused", "[native]") {
  using namespace profana::native;
  std::string b = WriteNative(profana::test::SmallTrace());
  auto lie = [&](uint32_t id, size_t index, auto value) { return Lie(b, id, index, value); };
  CHECK(lie(kEventsBase + 4, 1, uint32_t{9}) ==
        "t.pfa: section events.thread row 1: value 9 out of range (must be below 2)");
  CHECK(lie(kEventsBase + 0, 0, uint32_t{1000})
            .find("section events.name row 0: value 1000 out of range") != std::string::npos);
  CHECK(lie(kEventsBase + 3, 2, uint8_t{200}).find("section events.kind row 2: value 200") !=
        std::string::npos);
  CHECK(lie(kEventsBase + 12, 0, uint32_t{77}).find("section events.stack row 0: value 77") !=
        std::string::npos);
  CHECK(lie(kFlowsBase + 4, 0, uint8_t{3}).find("section flows.is_start row 0") !=
        std::string::npos);
  CHECK(lie(kStacksBase + 0, 1, uint32_t{2})
            .find("section stacks row 1: parent 2 must be an earlier row") != std::string::npos);
  CHECK(lie(kEventsBase + 5, 1, int64_t{1})
            .find("section events row 1: not in (start, -end) order") != std::string::npos);
  CHECK(lie(kEventsBase + 6, 0, int64_t{0}).find("section events row 0: ends before it starts") !=
        std::string::npos);
  CHECK(lie(kStrings, 3, uint64_t{0}).find("section strings at byte") != std::string::npos);
  CHECK(lie(kThreads, 4, uint32_t{999}).find("section threads row 0: string 999 out of range") !=
        std::string::npos);
  // Memory and flow times are checked as event times are: INT64_MAX is the passes' end-of-list
  // placeholder, and a record there made `queue` and `optimizable` crash.
  CHECK(lie(kMemoryBase + 0, 0, INT64_MAX) ==
        "t.pfa: section memory.ts_ns row 0: time 9223372036854775807 out of range (+-2^62 ns, as "
        "every importer keeps)");
  CHECK(lie(kFlowsBase + 1, 1, -(int64_t{1} << 62) - 1)
            .find("section flows.ts_ns row 1: time -4611686018427387905 out of range") !=
        std::string::npos);

  // Overlapping sections, a section twice, a column of the wrong length, a section past the end.
  std::string d = b;
  size_t a1 = EntryAt(b, kEventsBase + 1), a0 = EntryAt(b, kEventsBase + 0);
  Put64(&d, a1 + 8, Get64(b, a0 + 8) + 4);
  Reseal(&d);
  CHECK(Error(d).find("overlaps section events.name") != std::string::npos);
  d = b;
  Put32(&d, a1, kEventsBase + 0);
  Reseal(&d);
  CHECK(Error(d).find("appears twice in the section table") != std::string::npos);
  d = b;
  Put64(&d, a1 + 16, Get64(b, a1 + 16) - 4);
  Reseal(&d);
  CHECK(Error(d).find("section events.trace_name: 2 rows, other columns of the table have 3") !=
        std::string::npos);
  d = b;
  Put64(&d, a1 + 8, uint64_t{1} << 62);
  Reseal(&d);
  CHECK(Error(d).find("lie outside the file") != std::string::npos);
  d = b;
  Put32(&d, 16, 5000);
  Reseal(&d);
  CHECK(Error(d).find("section count 5000 out of range") != std::string::npos);
}

TEST_CASE("a function event index that lies is refused; one of another version is set aside",
          "[native]") {
  using namespace profana::native;
  Trace t = profana::test::SmallTrace();
  profana::passes::FunctionEventList built = profana::passes::BuildFunctionEvents(t);
  REQUIRE(built.size() >= 3);
  std::string b = WriteNative(t, profana::passes::MakeFunctionEventIndex(t, built));
  auto read = ReadNative(b, "t.pfa");
  REQUIRE(read.ok());
  REQUIRE(read->function_index.has_value());
  CHECK(profana::passes::BuildFunctionEvents(read->trace, read->function_index).kernel_index ==
        built.kernel_index);
  // A flipped byte in any of the index's sections fails its checksum.
  for (uint32_t id = kIndexBase; id <= kIndexBase + 12; ++id) {
    uint64_t off = Get64(b, EntryAt(b, id) + 8), size = Get64(b, EntryAt(b, id) + 16);
    if (size == 0) continue;
    std::string d = b;
    d[off] ^= 0x20;
    CHECK(Error(d).find("checksum mismatch") != std::string::npos);
  }
  auto lie = [&](uint32_t id, size_t index, auto value) { return Lie(b, id, index, value); };
  CHECK(lie(kIndexBase + 0, 1, uint32_t{99})
            .find("section function_index.source row 1: event 99 out of range") !=
        std::string::npos);
  CHECK(lie(kIndexBase + 2, 0, uint8_t{2}).find("section function_index.device_type row 0") !=
        std::string::npos);
  CHECK(lie(kIndexBase + 4, 1, int32_t{1}) ==
        "t.pfa: section function_index.parent row 1: parent 1 must be -1 or an earlier event");
  CHECK(lie(kIndexBase + 5, 1, uint32_t{9}).find("section function_index.child_begin row") !=
        std::string::npos);
  CHECK(lie(kIndexBase + 6, 0, uint32_t{0})
            .find("section function_index.child_index row 0: event 0 is listed as a child of "
                  "event 0, but its parent is -1") != std::string::npos);
  CHECK(lie(kIndexBase + 8, 0, uint32_t{1000})
            .find("section function_index.kernel_index row 0: 1000 out of range") !=
        std::string::npos);
  CHECK(lie(kIndexBase + 11, 2, int64_t{-5})
            .find("section function_index.cuda_total_ns row 2: CUDA total -5 ns") !=
        std::string::npos);
  CHECK(lie(kIndexBase + 12, 1, std::numeric_limits<double>::quiet_NaN())
            .find("section function_index.cuda_total_ns row 1:") != std::string::npos);
  CHECK(lie(kIndexBase + 12, 0, std::numeric_limits<double>::infinity())
            .find("section function_index.cuda_total_ns row 0:") != std::string::npos);
  // A column of the wrong length.
  std::string d = b;
  size_t at = EntryAt(b, kIndexBase + 4);
  Put64(&d, at + 16, Get64(b, at + 16) - 4);
  Reseal(&d);
  CHECK(Error(d).find("section function_index.parent: ") != std::string::npos);
  // Another version's index may mean something else: the file reads, without it.
  d = b;
  Put32(&d, Get64(b, EntryAt(b, kFunctionIndex) + 8), kFunctionEventIndexVersion + 1);
  Reseal(&d);
  auto other = ReadNative(d, "t.pfa");
  REQUIRE(other.ok());
  CHECK_FALSE(other->function_index.has_value());
  CHECK(profana::passes::BuildFunctionEvents(other->trace, other->function_index).kernel_index ==
        built.kernel_index);
}

TEST_CASE("the text twin reads back what it wrote and refuses what it cannot read", "[native]") {
  using profana::native::ReadNativeText;
  std::string text = profana::native::WriteNativeText(profana::test::SmallTrace());
  auto t = ReadNativeText(text, "t.txt");
  REQUIRE(t.ok());
  CHECK(profana::native::WriteNativeText(*t) == text);
  CHECK(profana::native::WriteNative(*t) ==
        profana::native::WriteNative(profana::test::SmallTrace()));
  auto err = [&](const std::string& from, const std::string& to) {
    std::string d = text;
    size_t at = d.find(from);
    REQUIRE(at != std::string::npos);
    d.replace(at, from.size(), to);
    auto r = ReadNativeText(d, "t.txt");
    return r.ok() ? std::string() : r.status().message();
  };
  CHECK(err("profana-native-text 2", "profana-native-text 9") ==
        "t.txt: line 1: text twin version 9; this profana reads version 2");
  CHECK(err("string 2 ", "string 7 ").find("t.txt: line ") == 0);
  CHECK(err("\nevents ", "\nevents 99999 ").find("values, expected 17") != std::string::npos);
  CHECK(err("metadata rank -1", "metadata rank x").find("bad value for metadata rank") !=
        std::string::npos);
  CHECK(err("metadata format \"kineto-json\"", "metadata format \"kineto").find("unterminated") !=
        std::string::npos);
  CHECK(err("columns flows", "columns flowz").find("columns of table \"flowz\"") !=
        std::string::npos);
}

TEST_CASE("empty tables read back: an empty section overlaps nothing", "[native]") {
  // Found by the fuzzer: empty sections share their offset with the next section.
  profana::Trace empty = TraceBuilder().Finish();
  std::string b = profana::native::WriteNative(empty);
  auto r = profana::native::ReadNative(b, "empty.pfa");
  REQUIRE(r.ok());
  CHECK(profana::native::WriteNative(r->trace) == b);
  TraceBuilder only_events;
  TraceBuilder::Event e;
  e.trace_name = only_events.Intern("op");
  e.thread = only_events.Thread(1, 1);
  e.end_ns = 5;
  only_events.AddEvent(e);
  b = profana::native::WriteNative(std::move(only_events).Finish());
  CHECK(profana::native::ReadNative(b, "events.pfa").ok());
}
