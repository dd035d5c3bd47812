// Hostile input: numbers at the ends of int64, bytes after the trace, numbers outside JSON's
// grammar, names with lone surrogates, nesting past the documented limit, endless inputs and
// budget files. Inputs are built here (or are cases of testdata/bad/MANIFEST); each expectation
// is worked out in its comment. The ASan build runs with UBSan, which fails on any signed
// overflow these inputs used to cause.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "fmt/format.h"
#include "profana/importers/importer.h"
#include "profana/io/native_writer.h"
#include "profana/model/trace_builder.h"
#include "profana/passes/budget.h"
#include "profana/passes/function_events.h"
#include "test_util.h"

using profana::test::CpuOpJson;
using profana::test::FirstLine;
using profana::test::Run;
using profana::test::TempFile;
using profana::test::TraceJson;

TEST_CASE("a byte count of 2^60 prints; one of -2^63 is refused", "[hostile]") {
  // One op [0, 10) us with a [memory] record inside it: of 2^60 bytes (1 EiB), its CPU Mem and
  // Self CPU Mem are 2^30 GiB; the memory timeline sets such a record aside, and says so.
  auto trace = [](const std::string& bytes) {
    return TraceJson(CpuOpJson("aten::empty", 0, 10) +
                     ",\n{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", "
                     "\"pid\": 1, \"tid\": 1, \"ts\": 5, \"args\": {\"Bytes\": " +
                     bytes + ", \"Addr\": 1, \"Device Type\": 0, \"Device Id\": -1}}");
  };
  TempFile t("bytes.json", trace("1152921504606846976"));
  auto table = Run({"table", t.path});
  CHECK(table.code == 0);
  CHECK(table.out.find("1073741824.00 GB") != std::string::npos);
  auto memory = Run({"memory", t.path});
  CHECK(memory.code == 0);
  CHECK(memory.out.find("1 records above 256 TiB (ignored)") != std::string::npos);
  // -2^63 bytes is past what profana's sums hold (2^61, model/trace_sums.h): refused.
  TempFile min("min_bytes.json", trace("-9223372036854775808"));
  for (const char* command : {"table", "memory"}) {
    auto r = Run({command, min.path});
    CHECK(r.code == 2);
    CHECK(FirstLine(r.err) ==
          "profana: error: " + min.path +
              ": the memory records' sizes add up to 9223372036854775808 bytes, past the 2^61 "
              "bytes (2 EiB) that profana's sums hold: the sizes cannot be right (the largest: "
              "-9223372036854775808 bytes at 5000 ns)");
  }
}

TEST_CASE("copies whose sizes add up past 2^61 bytes are refused", "[hostile]") {
  // Two memcpys of 2^62 bytes each: their sum in the kernel statistics would pass INT64_MAX, and
  // the second would drop out of the kernels table; kernels refuses the trace instead. A command
  // that does not read the copies' sizes (table) reads it.
  auto copy = [](int n, int ts) {
    std::string corr = std::to_string(n);
    return ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaMemcpyAsync\", "
           "\"pid\": 1, \"tid\": 1, \"ts\": " +
           std::to_string(ts) + ", \"dur\": 1, \"args\": {\"correlation\": " + corr +
           "}},\n{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pageable -> "
           "Device)\", \"pid\": 0, \"tid\": 7, \"ts\": " +
           std::to_string(ts + 1) + ", \"dur\": 4, \"args\": {\"correlation\": " + corr +
           ", \"device\": 0, \"stream\": 7, \"bytes\": 4611686018427387904}}";
  };
  TempFile t("huge_copies.json",
             TraceJson(CpuOpJson("aten::copy_", 0, 50) + copy(1, 1) + copy(2, 10)));
  auto r = Run({"kernels", t.path});
  CHECK(r.code == 2);
  CHECK(r.err.find(": the copies' and memsets' sizes add up to 9223372036854775808 bytes, past "
                   "the 2^61 bytes (2 EiB) that profana's sums hold: the sizes cannot be right "
                   "(the largest: \"Memcpy HtoD (Pageable -> Device)\" 4611686018427387904 "
                   "bytes at ") != std::string::npos);
  CHECK(Run({"table", t.path}).code == 0);
}

TEST_CASE("window bounds past the range of times keep nothing or everything", "[hostile]") {
  // Ops at 0 and 100 us from the trace start, 10 us each. 9e15 us is 9e18 ns, past int64 once
  // the origin is added: a start there keeps nothing (as 5000 does: an error that says where the
  // events are), an end there everything (as no end does).
  TempFile t("window.json", TraceJson(CpuOpJson("a", 0, 10) + ",\n" + CpuOpJson("b", 100, 10)));
  auto all = Run({"table", t.path, "--format", "json"});
  auto none = Run({"table", t.path, "--format", "json", "--window", "5000:"});
  REQUIRE(all.code == 0);
  CHECK(none.code == 2);
  CHECK(none.err == fmt::format("profana: error: {}: --window 5000: keeps no event: the trace's "
                                "events run from 0 to 110 us\n",
                                t.path));
  auto late_start = Run({"table", t.path, "--format", "json", "--window", "9000000000000000:"});
  CHECK(late_start.code == 2);
  CHECK(late_start.err == fmt::format("profana: error: {}: --window 9000000000000000: keeps no "
                                      "event: the trace's events run from 0 to 110 us\n",
                                      t.path));
  auto late_end = Run({"table", t.path, "--format", "json", "--window", ":9000000000000000"});
  CHECK(late_end.out == all.out);
  auto early_start = Run({"table", t.path, "--format", "json", "--window", "-9000000000000000:"});
  CHECK(early_start.out == all.out);
  // Exponents are not integers: refused, whichever end they are at.
  for (const char* w : {":9e15", "9e15:"}) {
    auto r = Run({"table", t.path, "--window", w});
    CHECK(r.code == 2);
    CHECK(r.err == fmt::format("profana: error: --window \"{}\": expected START:END from the trace "
                               "start, each a number of microseconds or a duration such as "
                               "1.5ms, 250us, 2s (either may be empty)\n",
                               w));
  }
}

TEST_CASE("forged CUDA totals in a native index are refused", "[hostile]") {
  // Two ops named "op", each with a CUDA total of INT64_MAX ns in the index. key_averages would
  // add them up past 2^63: the reader refuses totals that add up past what profana's sums hold.
  profana::TraceBuilder b;
  profana::ThreadId cpu = b.Thread(1, 1);
  for (int i = 0; i < 2; ++i) {
    profana::TraceBuilder::Event op;
    op.trace_name = b.Intern("op");
    op.thread = cpu;
    op.start_ns = 1000 * i;
    op.end_ns = 1000 * i + 500;
    b.AddEvent(op);
  }
  profana::Trace trace = std::move(b).Finish();
  auto built = profana::passes::BuildFunctionEvents(trace);
  profana::FunctionEventIndex index = profana::passes::MakeFunctionEventIndex(trace, built);
  REQUIRE(index.cuda_total_ns.size() == 2);
  index.cuda_total_ns.owned() = {INT64_MAX, INT64_MAX};
  TempFile t("forged.pfa", profana::native::WriteNative(trace, index));
  auto r = Run({"table", t.path, "--format", "json"});
  CHECK(r.code == 2);
  CHECK(r.err.find("cuda_total_ns row 0: the CUDA totals add up past the 2^61 ns (73 years) that "
                   "profana's sums hold") != std::string::npos);
}

TEST_CASE("bytes after the trace are counted, and fatal with --strict", "[hostile]") {
  // Two whole traces one after the other: the first is read, and the second's 112 bytes counted.
  std::string one = TraceJson(CpuOpJson("a", 0, 10));
  TempFile t("two.json", one + one);
  auto info = Run({"info", t.path});
  CHECK(info.code == 0);
  CHECK(info.out.find("trailing_content") != std::string::npos);
  CHECK(Run({"table", t.path, "--strict"}).code == 2);
  // Only spaces after the value: nothing to say.
  TempFile spaces("spaces.json", one + "\n\n  \t\n");
  auto clean = Run({"table", spaces.path});
  CHECK(clean.code == 0);
  CHECK(clean.err.empty());
}

TEST_CASE("a lone surrogate in a name costs the name, not the file", "[hostile]") {
  // "a\ud800b" (the first event, at byte 18): \ud800 has no pair, so no character; it becomes
  // U+FFFD (EF BF BD in UTF-8), the event is kept and the replacement counted. A proper pair
  // (\ud83d\ude00, U+1F600) is kept.
  TempFile t("surrogate.json", TraceJson(CpuOpJson("a\\ud800b", 0, 10) + ",\n" +
                                         CpuOpJson("\\ud83d\\ude00", 20, 10)));
  auto r = Run({"table", t.path, "--format", "json"});
  CHECK(r.code == 0);
  CHECK(r.out.find("\"name\": \"a\xEF\xBF\xBD"
                   "b\"") != std::string::npos);
  CHECK(r.out.find("\"name\": \"\xF0\x9F\x98\x80\"") != std::string::npos);
  CHECK(FirstLine(r.err) ==
        "profana: warning: " + t.path +
            ": 1 problem (1 invalid_string); first: byte 18, event #0: field \"name\" has a \\u "
            "escape of a lone UTF-16 surrogate, which no character encodes; kept with U+FFFD in "
            "its place (see `profana info`; --strict makes these fatal)");
  CHECK(Run({"table", t.path, "--strict"}).code == 2);
}

TEST_CASE("nesting deeper than 1,024 levels inside an event is refused by both readers",
          "[hostile]") {
  // An event whose args hold 1,030 nested arrays: the document is more than 1,024 deep. The
  // streaming reader (a file) and the whole-buffer reader (standard input, a gzip stream) give
  // the same error.
  std::string deep = std::string(1030, '[') + std::string(1030, ']');
  std::string text = TraceJson(
      "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": 1, "
      "\"tid\": 1, \"ts\": 0, \"dur\": 1, \"args\": {\"deep\": " +
      deep + "}}");
  TempFile t("deep.json", text);
  auto file = Run({"table", t.path});
  CHECK(file.code == 2);
  CHECK(file.err.find("JSON nested deeper than 1024 levels") != std::string::npos);
  auto input = profana::InputFromBytes(text, t.path);
  REQUIRE(input.ok());
  auto whole = profana::LoadTraceFromBuffer(*input);
  REQUIRE_FALSE(whole.ok());
  CHECK("profana: error: " + whole.status().message() + "\n" == file.err);
}

TEST_CASE("an endless input that is no trace fails after its first bytes", "[hostile]") {
  // /dev/zero never ends: its first 4 KiB (NUL bytes) start no format, so reading stops there.
  auto r = Run({"table", "/dev/zero"});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "profana: error: /dev/zero: byte 0: unrecognized format (not JSON; profana reads "
        "rocprofv3 JSON, Chrome-trace JSON, Nsight Systems SQLite exports, rocmProfileData "
        "databases, rocpd databases, nvprof databases, profana native files and native text "
        "twins)\n");
  // A budget must start with '{': /dev/zero is refused at once too.
  TempFile trace("budget_trace.json", TraceJson(CpuOpJson("a", 0, 10)));
  auto budget = Run({"check", trace.path, "--budget", "/dev/zero"});
  CHECK(budget.code == 2);
  CHECK(budget.err ==
        "profana: error: /dev/zero: byte 0 (line 1, column 1): a budget is a JSON object with "
        "\"rules\"\n");
}

TEST_CASE("budget files: --max-memory applies, a BOM is read, errors say where", "[hostile]") {
  using profana::passes::ParseBudget;
  TempFile trace("limits_trace.json", TraceJson(CpuOpJson("a", 0, 10)));
  // A 2 MiB budget (a long description) under a 1 MiB limit.
  TempFile big("big_budget.json", "{\"description\": \"" + std::string(2 << 20, 'x') +
                                      "\", \"rules\": [{\"metric\": \"op_count\", \"op\": \"a\", "
                                      "\"max\": 1}]}");
  auto limited = Run({"check", trace.path, "--budget", big.path, "--max-memory", "1M"});
  CHECK(limited.code == 2);
  CHECK(limited.err.find("profana: error: " + big.path + ": byte 0: is 2.00 MiB, more than") == 0);
  CHECK(Run({"check", trace.path, "--budget", big.path}).code == 0);
  // A byte order mark is skipped, as in traces.
  auto bom =
      ParseBudget("\xEF\xBB\xBF{\"rules\": [{\"metric\": \"step_time\", \"max\": 1}]}", "b.json");
  REQUIRE(bom.ok());
  CHECK(bom->rules.size() == 1);
  // The rule opens at byte 13: `{"rules":[` is 10 bytes, the newline the 11th, two spaces.
  auto needs_op = ParseBudget("{\"rules\":[\n  {\"metric\":\"op_count\",\"max\":1}\n]}", "b.json");
  CHECK(needs_op.status().message() ==
        "b.json: byte 13 (line 2, column 3): rules[0]: metric op_count needs \"op\"");
  // A bad key points at its value: `{"rules":[{"metric":"step_time","maxx":` is 39 bytes. With
  // a byte order mark before it, the byte offset (in the file) moves by 3, the column does not.
  std::string unknown = "{\"rules\":[{\"metric\":\"step_time\",\"maxx\":1}]}";
  CHECK(ParseBudget(unknown, "b.json").status().message() ==
        "b.json: byte 39 (line 1, column 40): rules[0]: unknown key \"maxx\" (expected: metric, "
        "name, op, device, per_step, max, min, peak_tflops)");
  CHECK(ParseBudget("\xEF\xBB\xBF" + unknown, "b.json")
            .status()
            .message()
            .find("b.json: byte 42 (line 1, column 40): ") == 0);
  // Bytes after the object: the 'x' at byte 47 (`{"rules": [...]}` is 46 bytes, then a space).
  CHECK(ParseBudget("{\"rules\": [{\"metric\": \"step_time\", \"max\": 1}]} x", "b.json")
            .status()
            .message() ==
        "b.json: byte 47 (line 1, column 48): not a valid budget: bytes follow the JSON object");
  // A comma before the array's ']': the ']' is byte 45 (`{"rules": [` is 11 bytes, the rule 33,
  // the comma 1).
  CHECK(ParseBudget("{\"rules\": [{\"metric\": \"step_time\", \"max\": 1},]}", "b.json")
            .status()
            .message() ==
        "b.json: byte 45 (line 1, column 46): not a valid budget: a comma before ']'");
}

TEST_CASE("kernels near the range of times that add up past 2^61 ns are refused", "[hostile]") {
  // Three ops, each launching one kernel of almost 2^62 ns (the longest a duration may be), on
  // three streams: together 1.4e19 ns, past INT64_MAX. The table's JSON total, the stacks'
  // total, the flamegraph's root, diff's and check's totals would add them: every command
  // refuses the trace, naming the kernels.
  auto kernel = [](int n) {
    std::string corr = std::to_string(n), ext = std::to_string(100 + n);
    return ",\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op" + corr +
           "\", \"pid\": 1, \"tid\": 1, \"ts\": " + std::to_string(10 * n) +
           ", \"dur\": 5, \"args\": {\"External id\": " + ext +
           "}},\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
           "\"pid\": 1, \"tid\": 1, \"ts\": " +
           std::to_string(10 * n + 1) + ", \"dur\": 1, \"args\": {\"External id\": " + ext +
           ", \"correlation\": " + corr +
           "}},\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k" + corr +
           "\", \"pid\": 0, \"tid\": " + std::to_string(6 + n) +
           ", \"ts\": 0.000, \"dur\": 4611686018427387.000, \"args\": "
           "{\"External id\": " +
           ext + ", \"correlation\": " + corr +
           ", \"device\": 0, \"stream\": " + std::to_string(6 + n) + "}}";
  };
  TempFile t("huge_kernels.json",
             TraceJson(CpuOpJson("step", 0, 100) + kernel(1) + kernel(2) + kernel(3)));
  TempFile budget("huge_budget.json",
                  "{\"rules\": [{\"metric\": \"self_device_time\", \"max\": 1}]}");
  for (std::vector<std::string> args :
       {std::vector<std::string>{"table", t.path, "--format", "json"},
        {"stacks", t.path, "--metric", "self_cuda", "--format", "json"},
        {"stacks", t.path, "--metric", "self_cuda", "--svg", t.path + ".svg"},
        {"diff", t.path, t.path, "--format", "json"},
        {"check", t.path, "--budget", budget.path}}) {
    INFO(args[0]);
    auto r = Run(args);
    CHECK(r.code == 2);
    CHECK(r.err.find(": the events' durations add up to 13835058055282279000 ns, past the 2^61 "
                     "ns (73 years) that profana's sums hold: the times cannot be right (the "
                     "longest: \"k") != std::string::npos);
  }
  std::remove((t.path + ".svg").c_str());
}

TEST_CASE("a phase or key written with escapes or spaces reads as plainly written", "[hostile]") {
  // The reader takes a one-character "ph" from its token; escaped forms take the full path.
  TempFile t(
      "phases.json",
      TraceJson(
          "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, "
          "\"ts\": 0, \"dur\": 5},\n"
          "{\"ph\": \"\\u0058\", \"cat\": \"cpu_op\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, "
          "\"ts\": 10, \"dur\": 5},\n"
          "{\"p\\u0068\": \"X\", \"cat\": \"cpu_op\", \"name\": \"c\", \"pid\": 1, \"tid\": 1, "
          "\"ts\": 20, \"dur\": 5},\n"
          "{\"ph\": \"XY\", \"cat\": \"cpu_op\", \"name\": \"d\", \"pid\": 1, \"tid\": 1, "
          "\"ts\": 30, \"dur\": 5},\n"
          "{\"ph\" : \"X\" , \"cat\": \"cpu_op\", \"name\": \"e\", \"pid\": 1, \"tid\": 1, "
          "\"ts\": 40, \"dur\": 5}"));
  auto r = Run({"info", t.path});
  CHECK(r.code == 0);
  CHECK(r.out.find("duration events: 4\n") != std::string::npos);
  CHECK(r.out.find("unknown_phase                   1") != std::string::npos);
  auto table = Run({"table", t.path});
  for (const char* name : {"    a ", "    b ", "    c ", "    e "})
    CHECK(table.out.find(name) != std::string::npos);
  CHECK(table.out.find("    d ") == std::string::npos);
}

TEST_CASE("a phase of other than one character is named whole in the warning", "[hostile]") {
  std::string long_ph(40, 'Q');
  TempFile t("phases.json",
             TraceJson(CpuOpJson("aten::mm", 0, 10) +
                       ",\n{\"ph\": \"Xyz\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1}" +
                       ",\n{\"ph\": \"\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 2}" +
                       ",\n{\"ph\": \"" + long_ph +
                       "\", \"name\": \"c\", \"pid\": 1, \"tid\": 1, " + "\"ts\": 3}" +
                       ",\n{\"ph\": \"?\", \"name\": \"d\", \"pid\": 1, \"tid\": 1, \"ts\": 4}"));
  auto info = Run({"info", t.path});
  REQUIRE(info.code == 0);
  CHECK(info.out.find("unknown_phase                   4") != std::string::npos);
  CHECK(info.out.find("event #1: ph \"Xyz\"") != std::string::npos);
  CHECK(info.out.find("event #2: ph \"\"") != std::string::npos);
  CHECK(info.out.find("event #3: ph \"" + long_ph.substr(0, 32) + "\"") != std::string::npos);
  CHECK(info.out.find("event #4: ph \"?\"") != std::string::npos);
  // The table is the op's alone.
  auto table = Run({"table", t.path, "--format", "json"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("\"total_rows\": 1,") != std::string::npos);
}
