// Names are text whoever wrote the trace chose. Text reports and messages show control
// characters visibly (`\e]52;...\a` would set the terminal's clipboard, `\e[2J` clear its screen,
// a newline would forge a row), SVG stays well-formed XML, CSV cells a spreadsheet would run as
// formulas get a leading ', and markdown names stay inside their table cell and code span; the
// last test runs every command and format on a trace of hostile names.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "profana/base/terminal_text.h"
#include "profana/reporters/csv_field.h"
#include "simdjson.h"
#include "test_util.h"

using profana::test::Run;
using profana::test::TempFile;

namespace {

// Ops one after another on one thread, each 10 us; names are JSON string contents.
std::string TraceOfNames(const std::vector<std::string>& names) {
  std::string events;
  int ts = 0;
  for (const std::string& name : names) {
    if (!events.empty()) events += ",\n";
    events += "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + name +
              "\", \"pid\": 1, \"tid\": 1, \"ts\": " + std::to_string(ts) + ", \"dur\": 10}";
    ts += 20;
  }
  return "{\"traceEvents\": [\n" + events + "\n]}\n";
}

bool HasControlByte(const std::string& s, bool allow_layout) {
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 || u == 0x7f) && !(allow_layout && (c == '\n' || c == '\t'))) return true;
  }
  return false;
}

const std::vector<std::string> kNames = {
    "clip\\u001b]52;c;aGk=\\u0007board",  // OSC 52: writes the clipboard
    "\\u001b[2Jclear",                    // clears the screen
    "=HYPERLINK(\\\"http://x\\\")",       // a spreadsheet formula
    "tick`s``x|y\\nz",                    // backticks, a pipe and a newline for markdown
    "`lead",                              // a code span that must be padded
    "c1\\u009bx",                         // a C1 control (CSI) as UTF-8
};

}  // namespace

TEST_CASE("text reports and messages show control characters in names", "[injection]") {
  TempFile t("names.json", TraceOfNames(kNames));
  for (const char* command : {"table", "tree", "stacks", "info"}) {
    auto r = Run({command, t.path});
    INFO(command << "\n" << r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK_FALSE(HasControlByte(r.out, true));
    CHECK_FALSE(HasControlByte(r.err, true));
    if (std::string(command) != "info") {
      // (stacks write ; as _: it separates frames)
      CHECK(r.out.find("clip\\x1b]52") != std::string::npos);
      CHECK(r.out.find("aGk=\\x07board") != std::string::npos);
      CHECK(r.out.find("\\x1b[2Jclear") != std::string::npos);
      CHECK(r.out.find("c1\\u009bx") != std::string::npos);
    }
  }
  // The table's name column is as wide as the longest name as shown: every line of the table has
  // the same length in code points (here all ASCII), escapes included.
  auto table = Run({"table", t.path});
  size_t width = table.out.find('\n');
  for (size_t at = 0, end; (end = table.out.find('\n', at)) != std::string::npos; at = end + 1)
    if (end > at && table.out[at] != 'S') CHECK(end - at == width);
  // A message naming a file: the path as given, with its escape shown.
  auto missing = Run({"table", "/nonexistent/\x1b[2Jtrace.json"});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("/nonexistent/\\x1b[2Jtrace.json") != std::string::npos);
  CHECK_FALSE(HasControlByte(missing.err, true));
}

TEST_CASE("an op with an empty name prints its line with the name empty", "[injection]") {
  // The empty name's text has no bytes at all (its view may hold a null pointer): the tree's
  // writer must copy nothing for it rather than hand memcpy a null source.
  TempFile t("empty_name.json", TraceOfNames({"", "x"}));
  auto r = Run({"tree", t.path});
  REQUIRE(r.code == 0);
  CHECK(r.out ==
        "thread 1 (pid 1)\n    total 10.000us, self 10.000us\n"
        "  x  total 10.000us, self 10.000us\n");
}

TEST_CASE("memory --by-op keeps its columns when a name holds control characters", "[injection]") {
  // Each op allocates 100 bytes on cuda:0 in its middle; the names are kNames.
  std::string events;
  int ts = 0;
  for (const std::string& name : kNames) {
    events += "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + name +
              "\", \"pid\": 1, \"tid\": 1, \"ts\": " + std::to_string(ts) +
              ", \"dur\": 10},\n{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", "
              "\"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, \"ts\": " +
              std::to_string(ts + 5) +
              ", \"args\": {\"Device Type\": 1, \"Device Id\": 0, \"Bytes\": 100, \"Addr\": " +
              std::to_string(16 + ts) + "}},\n";
    ts += 20;
  }
  events.resize(events.size() - 2);  // the last ",\n"
  TempFile t("memory_names.json", "{\"traceEvents\": [\n" + events + "\n]}\n");
  auto r = Run({"memory", t.path, "--by-op"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK_FALSE(HasControlByte(r.out, true));
  CHECK(r.out.find("clip\\x1b]52") != std::string::npos);
  // The header and every row end at the same column: the names were measured as shown.
  size_t header = r.out.find("Name");
  REQUIRE(header != std::string::npos);
  size_t width = r.out.find('\n', header) - header, rows = 0;
  for (size_t at = r.out.find('\n', header) + 1, end;
       (end = r.out.find('\n', at)) != std::string::npos; at = end + 1, ++rows)
    CHECK(end - at == width);
  CHECK(rows == kNames.size());
}

TEST_CASE("CSV output guards formula names", "[injection]") {
  TempFile t("names.json", TraceOfNames(kNames));
  auto csv = Run({"table", t.path, "--format", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(csv.out.find("\n\"'=HYPERLINK(\"\"http://x\"\")\",") != std::string::npos);
  CHECK(csv.out.find("\n\"'=") != std::string::npos);
}

TEST_CASE("markdown names stay in their cell and code span", "[injection]") {
  TempFile t("names.json", TraceOfNames(kNames));
  auto md = Run({"diff", t.path, t.path, "--format", "markdown"});
  REQUIRE(md.code == 0);
  INFO(md.out);
  // "tick`s``x|y\nz": the newline shown, the pipe escaped, a fence of three backticks (the
  // longest run inside is two).
  CHECK(md.out.find("| ```tick`s``x\\|y\\x0az``` |") != std::string::npos);
  // "`lead": starts with a backtick, so the fence of two is padded by a space.
  CHECK(md.out.find("| `` `lead `` |") != std::string::npos);
  // Every line of the key table is a table row.
  size_t table = md.out.find("| Name |");
  REQUIRE(table != std::string::npos);
  size_t end = std::min(md.out.find("\n\n", table), md.out.size());
  for (size_t at = table; at < end;) {
    CHECK(md.out[at] == '|');
    size_t next = md.out.find('\n', at);
    if (next == std::string::npos) break;
    at = next + 1;
  }
}

TEST_CASE("the flamegraph SVG holds no control character", "[injection]") {
  TempFile t("names.json", TraceOfNames(kNames));
  std::string svg = "/tmp/profana_injection_" + std::to_string(::getpid()) + ".svg";
  auto r = Run({"stacks", t.path, "--svg", svg, "-o", "/dev/null"});
  REQUIRE(r.code == 0);
  std::string text = profana::test::ReadFile(svg);
  std::remove(svg.c_str());
  CHECK_FALSE(HasControlByte(text, true));
  CHECK(text.find("clip\\x1b]52") != std::string::npos);
  CHECK(text.find("aGk=\\x07board") != std::string::npos);
}

TEST_CASE("JSON escapes C0 and C1 controls as \\u escapes", "[injection]") {
  TempFile t("names.json", TraceOfNames(kNames));
  auto json = Run({"table", t.path, "--format", "json"});
  REQUIRE(json.code == 0);
  CHECK_FALSE(HasControlByte(json.out, true));
  CHECK(json.out.find("clip\\u001b]52;c;aGk=\\u0007board") != std::string::npos);
  CHECK(json.out.find("c1\\u009bx") != std::string::npos);
  CHECK(json.out.find("tick`s``x|y\\nz") != std::string::npos);
}

namespace {

// A GPU trace whose every name is hostile: ops, a step, launches, kernels, a collective, memory.
// Each name holds a newline followed by "FORGED", which must never start a line (or a CSV
// record) of any output, and the other characters each format escapes: ESC, tab, |, backtick,
// quotes, backslash, <, &, and a leading =.
std::string HostileGpuTrace() {
  const std::string tail = "\\nFORGED | row \\u001b[2J\\t|`x`\\\"q\\\" \\\\ <b>&amp;";
  auto name = [&](const std::string& base) { return "=" + base + tail; };
  std::string e;
  auto add = [&](const std::string& event) { e += (e.empty() ? "" : ",\n") + event; };
  add("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, "
      "\"tid\": 1, \"ts\": 0, \"dur\": 1000}");
  add("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + name("op") +
      "\", \"pid\": 1, \"tid\": 1, \"ts\": 10, \"dur\": 500, \"args\": {\"Input Dims\": [[2, "
      "2]]}}");
  add("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
      "\"tid\": 1, \"ts\": 20, \"dur\": 5, \"args\": {\"correlation\": 1}}");
  // A synchronisation inside the op: advise's host-sync finding names the op.
  add("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaDeviceSynchronize\", "
      "\"pid\": 1, \"tid\": 1, \"ts\": 30, \"dur\": 200}");
  add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + name("kernel") +
      "\", \"pid\": 0, \"tid\": 7, \"ts\": 100, \"dur\": 50, \"args\": {\"device\": 0, "
      "\"stream\": 7, \"correlation\": 1}}");
  add("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + name("nccl:all_reduce") +
      "\", \"pid\": 1, \"tid\": 1, \"ts\": 600, \"dur\": 50}");
  add("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
      "\"tid\": 1, \"ts\": 610, \"dur\": 5, \"args\": {\"correlation\": 2}}");
  add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + name("ncclKernel_AllReduce") +
      "\", \"pid\": 0, \"tid\": 20, \"ts\": 700, \"dur\": 100, \"args\": {\"device\": 0, "
      "\"stream\": 20, \"correlation\": 2, \"Collective name\": \"allreduce\", "
      "\"Process Group Name\": \"" +
      name("pg") + "\"}}");
  add("{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
      "\"pid\": 1, \"tid\": 1, \"ts\": 30, \"args\": {\"Device Type\": 1, \"Device Id\": 0, "
      "\"Bytes\": 4096, \"Addr\": 64}}");
  add("{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"" +
      name("thread") + "\"}}");
  return "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 1}, \"traceEvents\": [\n" + e +
         "\n]}\n";
}

// The records of a CSV text (RFC 4180): fields split at commas outside quotes, records at line
// breaks outside quotes.
std::vector<std::vector<std::string>> CsvRecords(const std::string& text) {
  std::vector<std::vector<std::string>> records(1, std::vector<std::string>(1));
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        records.back().back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        records.back().back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      records.back().emplace_back();
    } else if (c == '\n') {
      records.emplace_back(1);
    } else {
      records.back().back() += c;
    }
  }
  return records;
}

}  // namespace

TEST_CASE("every command and format keeps hostile names inside their row and cell", "[injection]") {
  TempFile t("hostile_gpu.json", HostileGpuTrace());
  struct Command {
    std::vector<std::string> args;
    std::vector<std::string> formats;
  };
  const std::vector<std::string> all = {"text", "json", "csv", "markdown"};
  const Command commands[] = {
      {{"table"}, {"text", "json", "csv"}},
      {{"table", "--raw"}, {"text", "json", "csv"}},
      {{"table", "--group-by-input-shape"}, {"text", "json", "csv"}},
      {{"tree"}, {"text", "json"}},
      {{"stacks"}, {"text", "json"}},
      {{"stacks", "--metric", "self_cuda"}, {"text", "json"}},
      {{"optimizable"}, {"text", "json"}},
      {{"queue"}, {"text", "json", "csv"}},
      {{"idle"}, {"text", "json", "csv"}},
      {{"steps"}, all},
      {{"kernels"}, all},
      {{"kernels", "--by-op"}, all},
      {{"kernels", "--api"}, all},
      {{"collectives"}, all},
      {{"memory"}, {"text", "json", "csv", "timeline", "raw"}},
      {{"memory", "--by-op"}, {"text", "json", "csv"}},
      {{"info"}, {"text", "json"}},
      {{"diff", t.path}, all},
      {{"check"}, {"text", "json"}},
      {{"critical-path"}, all},
      {{"advise"}, all},
      {{"summarize"}, {"json"}},
  };
  for (const Command& c : commands) {
    for (const std::string& format : c.formats) {
      std::vector<std::string> args = {c.args[0], t.path};
      args.insert(args.end(), c.args.begin() + 1, c.args.end());
      args.insert(args.end(), {"--format", format});
      auto r = Run(args);
      std::string line;
      for (const std::string& a : args) line += a + " ";
      INFO(line << "\n" << r.out << r.err);
      REQUIRE(r.code == (c.args[0] == "check" && r.code == 1 ? 1 : 0));  // check may fail a rule
      CHECK_FALSE(HasControlByte(r.err, true));
      CHECK(r.err.find("\nFORGED") == std::string::npos);
      if (format == "json") {
        simdjson::dom::parser parser;
        simdjson::dom::element doc;
        CHECK_FALSE(parser.parse(simdjson::padded_string(r.out)).get(doc));
      } else if (format == "csv" || format == "timeline" || format == "raw") {
        for (const auto& record : CsvRecords(r.out)) CHECK(record.front().rfind("FORGED", 0) != 0);
      } else {
        CHECK_FALSE(HasControlByte(r.out, true));
        CHECK(r.out.find("\nFORGED") == std::string::npos);
      }
    }
  }
  // The SVG and the HTML page: well-formed (no control character, names as entities).
  std::string svg = "/tmp/profana_injection_" + std::to_string(::getpid()) + "_hostile.svg";
  REQUIRE(Run({"stacks", t.path, "--svg", svg}).code == 0);
  std::string text = profana::test::ReadFile(svg);
  CHECK_FALSE(HasControlByte(text, true));
  CHECK(text.find("<b>") == std::string::npos);
  std::remove(svg.c_str());
  auto html = Run({"memory", t.path, "--format", "html"});
  REQUIRE(html.code == 0);
  CHECK_FALSE(HasControlByte(html.out, true));
  // A file name with a newline in an error line: shown escaped, on one line.
  auto missing = Run({"table", "/nonexistent/a\nFORGED.json"});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("/nonexistent/a\\x0aFORGED.json") != std::string::npos);
  CHECK(missing.err.find("\nFORGED") == std::string::npos);
}
