// Damaged native files on the command line: a function event index that disagrees with itself,
// a text twin with a memory record at INT64_MAX, and files damaged byte by byte from a small
// trace; each exits 2 with one error line naming the file, never a crash (the ASan build runs
// this too).
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "fixtures.h"
#include "fmt/format.h"
#include "profana/io/native_reader.h"
#include "profana/io/native_writer.h"
#include "profana/model/trace_builder.h"
#include "profana/passes/function_events.h"
#include "test_util.h"

namespace {

using profana::Trace;
using profana::TraceBuilder;

}  // namespace

TEST_CASE("a function event index whose child lists disagree with parent is refused", "[native]") {
  using namespace profana::native;
  // A chain of 60 nested ops, op d over [d, 1000 - d) ns: event d's parent is d - 1 and its
  // only child d + 1.
  constexpr uint32_t kDepth = 60;
  TraceBuilder b;
  profana::ThreadId cpu = b.Thread(1, 1);
  for (uint32_t d = 0; d < kDepth; ++d) {
    TraceBuilder::Event op;
    op.trace_name = b.Intern("op" + std::to_string(d));
    op.thread = cpu;
    op.start_ns = d;
    op.end_ns = 1000 - d;
    b.AddEvent(op);
  }
  Trace t = std::move(b).Finish();
  profana::passes::FunctionEventList built = profana::passes::BuildFunctionEvents(t);
  REQUIRE(built.size() == kDepth);
  const profana::FunctionEventIndex x = profana::passes::MakeFunctionEventIndex(t, built);
  REQUIRE_FALSE(x.parent[0].valid());
  for (uint32_t d = 1; d < kDepth; ++d) REQUIRE(x.parent[d].value == d - 1);
  REQUIRE(ReadNative(WriteNative(t, x), "chain.pfa").ok());
  // The file written with the child lists replaced by `lists` (one list per event).
  auto forged = [&](const std::vector<std::vector<uint32_t>>& lists) {
    profana::LoadedTrace d = ReadNative(WriteNative(t, x), "chain.pfa").value();
    std::vector<uint32_t>& begin = d.function_index->child_begin.owned();
    std::vector<profana::FnEventId>& index = d.function_index->child_index.owned();
    index.clear();
    for (uint32_t r = 0; r < kDepth; ++r) {
      begin[r] = static_cast<uint32_t>(index.size());
      for (uint32_t c : lists[r]) index.push_back(profana::FnEventId(c));
    }
    begin[kDepth] = static_cast<uint32_t>(index.size());
    return WriteNative(d.trace, d.function_index);
  };
  auto with_children = [&](const std::vector<std::vector<uint32_t>>& lists) {
    auto read = ReadNative(forged(lists), "chain.pfa");
    return read.ok() ? std::string() : read.status().message();
  };
  // Each child listed twice: walking the lists would visit the last op 2^59 times (`tree` printed
  // 2^N lines, under any --max-memory).
  std::vector<std::vector<uint32_t>> twice(kDepth);
  for (uint32_t r = 0; r + 1 < kDepth; ++r) twice[r] = {r + 1, r + 1};
  CHECK(with_children(twice) ==
        "chain.pfa: section function_index.child_index row 1: event 1 is listed twice as a child "
        "of event 0");
  // A child listed under another event than its parent (event 2's parent is 1).
  std::vector<std::vector<uint32_t>> wrong(kDepth);
  for (uint32_t r = 0; r + 1 < kDepth; ++r) wrong[r] = {r + 1};
  wrong[1] = {};
  wrong[0] = {1, 2};
  CHECK(with_children(wrong) ==
        "chain.pfa: section function_index.child_index row 1: event 2 is listed as a child of "
        "event 0, but its parent is 1");
  // A child left out of its parent's list.
  std::vector<std::vector<uint32_t>> missing(kDepth);
  for (uint32_t r = 0; r + 1 < kDepth; ++r) missing[r] = {r + 1};
  missing[30] = {};
  CHECK(with_children(missing) ==
        "chain.pfa: section function_index.parent row 31: event 31 has parent 30 but is missing "
        "from its child list");

  // The command line refuses the doubled file with the same located error, and prints nothing.
  std::string path = (std::filesystem::temp_directory_path() / "profana-doubled.pfa").string();
  std::ofstream(path, std::ios::binary) << forged(twice);
  for (const char* command : {"tree", "optimizable"}) {
    auto r = profana::test::Run({command, path});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "profana: error: " + path +
                       ": section function_index.child_index row 1: event 1 is listed twice as a "
                       "child of event 0\n");
  }
  std::filesystem::remove(path);
}

TEST_CASE("a native text twin with a memory record at INT64_MAX is refused by every command",
          "[native]") {
  std::string path = profana::test::TestData("bad/native_text_memory_time.txt");
  for (const char* command : {"queue", "optimizable", "memory", "info"}) {
    auto r = profana::test::Run({command, path});
    INFO(command);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "profana: error: " + path +
                       ": section memory.ts_ns row 0: time 9223372036854775807 out of range "
                       "(+-2^62 ns, as every importer keeps)\n");
  }
}

TEST_CASE("damaged native files exit 2 with one error line naming the file", "[native]") {
  std::string b = profana::native::WriteNative(profana::test::SmallTrace());
  std::string path = (std::filesystem::temp_directory_path() / "profana-damaged.pfa").string();
  for (size_t cut : {size_t{4}, size_t{40}, b.size() - 1}) {
    std::ofstream(path, std::ios::binary) << b.substr(0, cut);
    auto r = profana::test::Run({"table", path});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("profana: error: " + path + ": ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  std::filesystem::remove(path);
}
