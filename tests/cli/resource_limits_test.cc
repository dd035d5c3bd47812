// Resource limits: inputs built to exhaust memory or time get a clear error or a
// bounded result, in seconds. The big inputs are generated here, never committed.
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>

#include "test_util.h"

using profana::test::Run;
using profana::test::TempFile;
using profana::test::TraceJson;

namespace {

std::string OpWithText(const std::string& name, const std::string& ts, const std::string& dur,
                       const std::string& args = "") {
  return "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + name +
         "\", \"pid\": 1, \"tid\": 1, \"ts\": " + ts + ", \"dur\": " + dur +
         (args.empty() ? "" : ", \"args\": {" + args + "}") + "}";
}

// n ops, each inside the one before: op i, named f or g by turns (a parent with a same-named
// only child would be removed as PyTorch's duplicate), runs [i, 2n - i) us: 2 us of self time.
std::string NestedOps(int n) {
  std::string events;
  events.reserve(n * 90);
  for (int i = 0; i < n; ++i) {
    if (i) events += ",\n";
    events += OpWithText(i % 2 ? "g" : "f", std::to_string(i), std::to_string(2 * (n - i)));
  }
  return TraceJson(events);
}

size_t CountOf(const std::string& text, char c) { return std::count(text.begin(), text.end(), c); }
size_t LineCount(const std::string& text) { return CountOf(text, '\n'); }
std::string LastLine(const std::string& text) {
  return text.substr(text.rfind('\n', text.size() - 2) + 1);
}

std::string Gzipped(const std::string& text) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&zs, text.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

}  // namespace

TEST_CASE("ops nested 100,000 deep: every command answers, in linear space", "[limits]") {
  constexpr int kDepth = 100000;
  TempFile file("nested.json", NestedOps(kDepth));
  auto table = Run({"table", file.path, "--format", "json"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("\"total_rows\": 2,") != std::string::npos);
  CHECK(table.out.find("\"count\": 50000,") != std::string::npos);
  // The text tree stops indenting at 64 levels and says the depth instead.
  auto tree = Run({"tree", file.path});
  REQUIRE(tree.code == 0);
  CHECK(LineCount(tree.out) == kDepth + 1);  // the thread's line, then one per op
  CHECK(tree.out.find(std::string(128, ' ') + "[depth 100000] g  total 2.000us, self 2.000us") !=
        std::string::npos);
  CHECK(tree.out.size() < 30u << 20);
  auto tree_json = Run({"tree", file.path, "--format", "json"});
  CHECK(tree_json.code == 0);
  CHECK(tree_json.out.size() / kDepth < 2000);  // linear: indentation stops at 64 levels
  // Op-path stacks are cut at 1024 frames: the 98,976 deeper ops fold into one sample.
  auto stacks = Run({"stacks", file.path, "--stacks", "ops", "--unit", "ns"});
  REQUIRE(stacks.code == 0);
  CHECK(LineCount(stacks.out) == 1025);
  std::string last = LastLine(stacks.out);
  CHECK(CountOf(last, ';') == 1024);
  CHECK(last.substr(0, 8) == "f;g;f;g;");
  CHECK(last.substr(last.size() - 28) ==
        "g;[deeper_frames] " + std::to_string(98976 * 2000) + "\n");
  TempFile svg("nested.svg", "");
  CHECK(Run({"stacks", file.path, "--stacks", "ops", "--svg", svg.path}).code == 0);
  CHECK(profana::test::ReadFile(svg.path).find("data-d=\"1025\"") != std::string::npos);
}

TEST_CASE(
    "JSON nested 100,000 levels deep is refused where it passes 1,024, never a stack overflow",
    "[limits]") {
  // In an args value profana does not read: simdjson's limit of 1,024 levels holds there too
  // (On-Demand skips such a value without counting). Level 1,025 opens at byte 1133: 18 bytes of
  // `{"traceEvents": [` and a newline, 95 of the event up to its "x" value (levels 1 to 4 are the
  // object, the array, the event and its args), then the '[' of levels 5 to 1,024.
  std::string nest = std::string(100000, '[') + std::string(100000, ']');
  TempFile file("deep.json", TraceJson(OpWithText("a", "1", "1", "\"x\": " + nest) + ",\n" +
                                       OpWithText("b", "3", "1", "\"Input Dims\": " + nest)));
  const std::string too_deep =
      "JSON nested deeper than 1024 levels: no profiler writes that; the file is damaged or not "
      "a trace\n";
  auto r = Run({"table", file.path, "--group-by-input-shape", "--format", "csv"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "profana: error: " + file.path + ": byte 1133 (line 2, column 1116): " + too_deep);
  // As the events array itself: level 1,025 is byte 1,024.
  TempFile top("deep_top.json", nest);
  auto t = Run({"table", top.path});
  CHECK(t.code == 2);
  CHECK(t.err == "profana: error: " + top.path + ": byte 1024 (line 1, column 1025): " + too_deep);
  // Cut short inside the nesting: the nesting is found first.
  std::string cut = "{\"traceEvents\": [" + OpWithText("a", "1", "1") + ", " +
                    OpWithText("b", "2", "1", "\"x\": " + std::string(100000, '['));
  TempFile truncated("deep_cut.json", cut);
  auto c = Run({"table", truncated.path});
  CHECK(c.code == 2);
  CHECK(c.err.find(too_deep) != std::string::npos);
  // 1,024 levels are allowed: the args value holds levels 5 to 1,024.
  TempFile deepest("deepest.json", TraceJson(OpWithText("a", "1", "1",
                                                        "\"x\": " + std::string(1020, '[') +
                                                            std::string(1020, ']'))));
  auto d = Run({"table", deepest.path});
  CHECK(d.code == 0);
  CHECK(d.err.empty());
}

TEST_CASE("a 16 MB name: bounded tables and stacks", "[limits]") {
  std::string name(16 << 20, 'n');
  TempFile file("long_name.json",
                TraceJson(OpWithText(name, "1", "10") + ",\n" + OpWithText("child", "2", "3")));
  auto table = Run({"table", file.path});
  REQUIRE(table.code == 0);
  CHECK(table.out.size() < 4096);  // the Name column is 55 wide
  auto stacks = Run({"stacks", file.path, "--stacks", "ops"});
  REQUIRE(stacks.code == 0);
  CHECK(stacks.out ==
        std::string(4096, 'n') + "[...] 7\n" + std::string(4096, 'n') + "[...];child 3\n");
  CHECK(Run({"info", file.path}).code == 0);
}

TEST_CASE("a million events with the same timestamp nest as PyTorch nests them, in seconds",
          "[limits]") {
  // Equal intervals contain each other ([s, e) containment, sorted by (start, -end)): a chain a
  // million deep, which every pass and the table must walk without recursion.
  constexpr int kEvents = 1000000;
  std::string events;
  events.reserve(kEvents * 40);
  for (int i = 0; i < kEvents; ++i) {
    events += i ? ",\n" : "";
    events += i % 2 ? "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":1}"
                    : "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":1}";
  }
  TempFile file("same_ts.json", "[" + events + "]");
  auto table = Run({"table", file.path, "--format", "json"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("\"count\": 500000,") != std::string::npos);
  auto tree = Run({"tree", file.path, "--depth", "3"});
  REQUIRE(tree.code == 0);
  CHECK(LineCount(tree.out) == 4);
  // Only the innermost op has self time (1 us): one line, through the fold.
  auto stacks = Run({"stacks", file.path, "--stacks", "ops", "--unit", "ns"});
  REQUIRE(stacks.code == 0);
  CHECK(LineCount(stacks.out) == 1);
  CHECK(CountOf(stacks.out, ';') == 1024);
  CHECK(stacks.out.substr(stacks.out.size() - 23) == "b;[deeper_frames] 1000\n");
}

TEST_CASE("ids near 2^64 cost only their field; times that overflow nanoseconds cost their event",
          "[limits]") {
  TempFile ids(
      "ids.json",
      TraceJson(
          OpWithText(
              "big_ids", "1", "5",
              "\"External id\": 18446744073709551615, \"correlation\": 18446744073709551614") +
          ",\n" + OpWithText("max_ids", "10", "5", "\"External id\": 9223372036854775807")));
  auto r = Run({"table", ids.path, "--format", "json"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"big_ids\"") != std::string::npos);
  CHECK(r.out.find("\"max_ids\"") != std::string::npos);
  CHECK(r.err == "profana: warning: " + ids.path +
                     ": 1 problem (1 dropped_field); first: byte 18, event #0: field "
                     "\"args.External id\" does not fit in a signed 64-bit integer; field dropped, "
                     "event kept (see `profana "
                     "info`; --strict makes these fatal)\n");
  CHECK(Run({"table", ids.path, "--strict"}).code == 2);

  // 2^62 ns is the last time kept; past it, and ts + dur past it, the event is skipped.
  TempFile times("times.json", TraceJson(OpWithText("edge", "4611686018427387.904", "0") + ",\n" +
                                         OpWithText("past", "4611686018427387.905", "0") + ",\n" +
                                         OpWithText("sum", "4611686018427386", "2") + ",\n" +
                                         OpWithText("huge", "1e300", "1") + ",\n" +
                                         OpWithText("max", "9223372036854775807", "1") + ",\n" +
                                         OpWithText("ok", "1", "1")));
  auto t = Run({"info", times.path, "--format", "json"});
  REQUIRE(t.code == 0);
  CHECK(t.out.find("\"bad_number\": 4") != std::string::npos);
  auto first = Run({"table", times.path});
  CHECK(
      first.err.find(
          "event #1: field \"ts\" is out of range (times must be within +-146 years of 0 in 64-bit "
          "nanoseconds); event skipped") != std::string::npos);
}

TEST_CASE("a gzip bomb stops at --max-memory; big inputs name the limit and the way past it",
          "[limits]") {
  std::string bomb_text = "[" + std::string(64 << 20, ' ') + "]";
  TempFile bomb("bomb.json.gz", Gzipped(bomb_text));
  CHECK(profana::test::ReadFile(bomb.path).size() < 200000);
  auto r = Run({"table", bomb.path, "--max-memory", "8M"});
  CHECK(r.code == 2);
  CHECK(r.err.rfind("profana: error: " + bomb.path + ": compressed byte ", 0) == 0);
  CHECK(r.err.find(": inflates past the memory limit of 8.00 MiB (--max-memory); if the file is "
                   "genuine, raise the "
                   "limit, e.g. --max-memory 32M, or 0 for none\n") != std::string::npos);
  // Under the limit (or with none) the same file is read: it is an empty trace, not a bomb.
  CHECK(Run({"info", bomb.path, "--max-memory", "0"}).code == 0);
  CHECK(Run({"info", bomb.path, "--max-memory", "65M"}).code == 0);

  TempFile plain("plain.json", NestedOps(20000));
  auto big = Run({"table", plain.path, "--max-memory", "1M"});
  CHECK(big.code == 2);
  CHECK(big.err.rfind("profana: error: " + plain.path + ": byte 0: is 1.", 0) == 0);
  CHECK(big.err.find(" MiB, more than the memory limit of 1.00 MiB (--max-memory)") !=
        std::string::npos);
  auto bad = Run({"table", plain.path, "--max-memory", "lots"});
  CHECK(bad.code == 2);
  CHECK(bad.err ==
        "profana: error: --max-memory lots: expected a size such as 512M, 16G or 0 (no limit)\n");
}

TEST_CASE("name filters on a name of 30000 characters run in linear time without a stack overflow",
          "[limits][filter]") {
  // libstdc++'s std::regex recursed once per character for ".*mm" here and overflowed the stack;
  // a backtracking engine is also quadratic on it. RE2 scans each name once.
  std::string as(30000, 'a');
  TempFile file("long_regex_name.json", TraceJson(OpWithText(as + "::mm", "1", "10") + ",\n" +
                                                  OpWithText("x::" + as, "100", "20") + ",\n" +
                                                  OpWithText("aten::mm", "200", "30")));
  // stacks --stacks ops prints one line per kept op: the name (cut at 4096 bytes) and its self
  // time in us, the lines in the order of their names.
  std::string long_mm = std::string(4096, 'a') + "[...] 10\n";
  std::string long_x = "x::" + std::string(4093, 'a') + "[...] 20\n";
  auto stacks = [&](const char* pattern) {
    auto r = Run({"stacks", file.path, "--stacks", "ops", "--name", pattern});
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    return r.out;
  };
  CHECK(stacks(".*mm") == long_mm + "aten::mm 30\n");
  CHECK(stacks("[a-z]+::mm") == long_mm + "aten::mm 30\n");
  CHECK(stacks("a+$") == long_x);
  auto excluded = Run({"stacks", file.path, "--stacks", "ops", "--exclude", ".*mm"});
  CHECK(excluded.code == 0);
  CHECK(excluded.out == long_x);
}
