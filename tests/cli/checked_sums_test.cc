// Sums never wrap: a trace whose durations or bytes add up past what 64 bits hold is refused
// (model/trace_sums.h, passes/event_sums.h), merges check every sum they make, and a summary file
// is checked for the invariants its writer keeps (job/summary_checks.h), naming the wrong field.
// Hostile inputs are written by the tests: traces as JSON text, summaries by editing what
// `profana summarize` writes.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "test_util.h"

using profana::test::CpuOpJson;
using profana::test::FirstLine;
using profana::test::Run;
using profana::test::TempFile;
using profana::test::TestData;

namespace {

std::string TraceOfEvents(const std::vector<std::string>& events) {
  std::string out = "{\"traceEvents\": [\n";
  for (size_t i = 0; i < events.size(); ++i) out += (i ? ",\n" : "") + events[i];
  return out + "\n]}\n";
}

std::string Launch(int64_t ts, int correlation) {
  return "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
         "\"tid\": 1, \"ts\": " +
         std::to_string(ts) +
         ", \"dur\": 1, \"args\": {\"correlation\": " + std::to_string(correlation) + "}}";
}

std::string Kernel(const std::string& name, int64_t ts, int64_t dur, int correlation) {
  return "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + name +
         "\", \"pid\": 0, \"tid\": 7, \"ts\": " + std::to_string(ts) +
         ", \"dur\": " + std::to_string(dur) +
         ", \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": " +
         std::to_string(correlation) + "}}";
}

// `text` with its first `from` replaced by `to` (which must be there).
std::string Edited(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// What `profana summarize` writes for one of the two-rank job's traces.
std::string Summary(const std::string& trace) {
  auto r = Run({"summarize", TestData("job/two_ranks/" + trace)});
  REQUIRE(r.code == 0);
  return r.out;
}

}  // namespace

TEST_CASE("durations that add up past 2^61 ns are refused, naming the longest events", "[sums]") {
  // Three kernels of 4e15 us each: within the +-2^62 ns of a time, but 1.2e19 ns together. Summed
  // in 64 bits they would wrap: a kernels total of -6446744073709551.616 us and a negative mean.
  TempFile t("long_kernels.json", TraceOfEvents({Kernel("k", 0, 4000000000000000, 1),
                                                 Kernel("k", 0, 4000000000000000, 2),
                                                 Kernel("k", 0, 4000000000000000, 3)}));
  for (const char* command : {"kernels", "table", "info"}) {
    auto r = Run({command, t.path, "--format", "json"});
    INFO(command);
    CHECK(r.code == 2);
    CHECK(FirstLine(r.err) ==
          "profana: error: " + t.path +
              ": the events' durations add up to 12000000000000000000 ns, past the 2^61 ns (73 "
              "years) that profana's sums hold: the times cannot be right (the longest: \"k\" "
              "(4000000000000000000 ns from 0 ns), \"k\" (4000000000000000000 ns from 0 ns), "
              "\"k\" (4000000000000000000 ns from 0 ns))");
  }
}

TEST_CASE("memory records whose sizes add up past 2^61 bytes are refused", "[sums]") {
  auto record = [](int64_t ts, const std::string& bytes) {
    return "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
           "\"pid\": 1, \"tid\": 1, \"ts\": " +
           std::to_string(ts) +
           ", \"args\": {\"Device Type\": 1, \"Device Id\": 0, \"Bytes\": " + bytes +
           ", \"Addr\": 16}}";
  };
  TempFile t("big_memory.json",
             TraceOfEvents({CpuOpJson("a", 0, 10), record(2, "4611686018427387904"),
                            record(4, "-4611686018427387904")}));
  auto r = Run({"memory", t.path});
  CHECK(r.code == 2);
  CHECK(r.err.find(": the memory records' sizes add up to 9223372036854775808 bytes, past the "
                   "2^61 bytes (2 EiB) that profana's sums hold") != std::string::npos);
}

TEST_CASE("an op's CUDA totals that nest past what 64 bits hold are refused", "[sums]") {
  // Eighteen nested ops, "f" and "g" in turn (so that no duplicate is removed), around one launch
  // of a 1.1e18 ns kernel: each op's CUDA total holds it, so row "f" adds it nine times: past 2^63,
  // it wrapped to a negative total.
  std::vector<std::string> events;
  for (int i = 0; i < 18; ++i) events.push_back(CpuOpJson(i % 2 ? "g" : "f", i, 100 - 2 * i));
  events.push_back(Launch(50, 1));
  events.push_back(Kernel("k", 60, int64_t{1} << 50, 1));  // 2^50 us, once: fits
  TempFile t("nested_cuda.json", TraceOfEvents(events));
  for (const char* command : {"table", "tree", "stacks"}) {
    auto r = Run({command, t.path, "--format", "json"});
    INFO(command << ": " << r.err);
    CHECK(r.code == 2);
    CHECK(FirstLine(r.err) ==
          "profana: error: " + t.path +
              ": the events' CUDA totals (each op's holds its children's) add up past the 2^61 "
              "ns (73 years) that profana's sums hold: the device times cannot be right (the "
              "largest: \"f\" at 0 ns, 1125899906842624000 ns)");
  }
}

TEST_CASE("an op's memory that nests past what 64 bits hold is refused", "[sums]") {
  // Eight nested ops, "f" and "g" in turn, around one 2^61-byte allocation: each op's CPU memory
  // holds it (PyTorch's cpu_memory_usage counts every record inside an event), so row "f" adds
  // it four times: 2^63, which wrapped.
  std::vector<std::string> events;
  for (int i = 0; i < 8; ++i) events.push_back(CpuOpJson(i % 2 ? "g" : "f", i, 100 - 2 * i));
  events.push_back(
      "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
      "\"pid\": 1, \"tid\": 1, \"ts\": 50, \"args\": {\"Device Type\": 0, \"Device Id\": -1, "
      "\"Bytes\": 2305843009213693952, \"Addr\": 16}}");
  TempFile t("nested_memory.json", TraceOfEvents(events));
  auto r = Run({"table", t.path, "--format", "json", "--sort", "cpu_memory_usage"});
  CHECK(r.code == 2);
  CHECK(FirstLine(r.err) ==
        "profana: error: " + t.path +
            ": the events' memory (each counting the [memory] records inside it) adds up past "
            "the 2^61 bytes (2 EiB) that profana's sums hold: the sizes cannot be right (the "
            "largest: \"f\" at 0 ns)");
}

TEST_CASE("merging summaries checks every sum it makes", "[sums]") {
  std::string rank0 = Summary("rank0.json"), rank1 = Summary("worker1.json");
  SECTION("kernel totals that pass INT64_MAX once merged") {
    // One run of gemm of 2^62 ns in each rank: valid alone, 2^63 together: a wrapped merge would
    // write a negative total, which no command reads.
    auto long_gemm = [](std::string s) {
      size_t at = s.find("{\"name\": \"void gemm<float>(float*)\", \"category\"");
      REQUIRE(at != std::string::npos);
      at = s.find("\"stats\": ", at) + 9;
      s.replace(at, s.find('}', at) + 1 - at,
                "{\"count\": 1, \"sum\": 4611686018427387904, \"sum_squares\": "
                "\"21267647932558653966460912964485513216\", \"min\": 4611686018427387904, "
                "\"max\": 4611686018427387904, \"exact\": [[4611686018427387904, 1]]}");
      return s;
    };
    TempFile a("long_gemm0.pfs", long_gemm(rank0)), b("long_gemm1.pfs", long_gemm(rank1));
    REQUIRE(Run({"kernels", a.path}).code == 0);
    REQUIRE(Run({"kernels", b.path}).code == 0);
    auto r = Run({"merge", a.path, b.path});
    CHECK(r.code == 2);
    CHECK(FirstLine(r.err) == "profana: error: merging " + b.path +
                                  ": kernel \"void gemm<float>(float*)\": its count, total or sum "
                                  "of squares passes what 64 (128) bits hold once merged: the "
                                  "summaries' numbers cannot be right");
    CHECK(r.out.empty());
  }
  SECTION("two stack weights of INT64_MAX") {
    auto with_stack = [](std::string s) {
      return Edited(s, "\"stacks\": []", "\"stacks\": [\n [\"a;b\", 9223372036854775807]]");
    };
    TempFile a("stack0.pfs", with_stack(rank0)), b("stack1.pfs", with_stack(rank1));
    auto r = Run({"merge", a.path, b.path});
    CHECK(r.code == 2);
    CHECK(r.err.find("the weight of stack \"a;b\": the merged sum passes the largest 64-bit "
                     "integer") != std::string::npos);
  }
  SECTION("table rows whose sums pass 2^63") {
    // aten::mm's CPU total 2^62 ns in each rank: valid alone, 2^63 together.
    auto long_mm = [](std::string s) {
      size_t row = s.find("{\"name\": \"aten::mm\"");
      REQUIRE(row != std::string::npos);
      for (auto [key, value] :
           {std::pair<std::string, std::string>{"\"cpu_total_us\": ", "4611686018427387.904"},
            {"\"cpu_total_ns\": ", "4611686018427387904"}}) {
        size_t at = s.find(key, row) + key.size();
        s.replace(at, s.find(',', at) - at, value);
      }
      return s;
    };
    TempFile a("row0.pfs", long_mm(rank0)), b("row1.pfs", long_mm(rank1));
    REQUIRE(Run({"table", a.path}).code == 0);
    REQUIRE(Run({"table", b.path}).code == 0);
    auto r = Run({"table", a.path, b.path});
    CHECK(r.code == 2);
    CHECK(FirstLine(r.err) ==
          "profana: error: adding rank 1 (" + TestData("job/two_ranks/worker1.json") +
              "): table row \"aten::mm\", cpu_total_ns: the merged sum passes the largest 64-bit "
              "integer; the summaries' numbers cannot be right");
  }
}

TEST_CASE("a summary is checked for what its writer guarantees, naming the field", "[sums]") {
  std::string good = Summary("rank0.json");
  struct Case {
    const char* what;
    std::string text;
    std::string message;  // after "FILE: not a usable summary: "
  };
  const Case cases[] = {
      {"a step of another rank",
       Edited(good, "{\"rank\": 0, \"step\": 2,", "{\"rank\": 99, \"step\": 2,"),
       "steps[1].rank: 99 is not a rank of the sources"},
      {"a step twice", Edited(good, "{\"rank\": 0, \"step\": 2,", "{\"rank\": 0, \"step\": 1,"),
       "steps[1]: rank 0 step 1 comes twice, or not after the step before it (steps are by rank, "
       "then step)"},
      {"a negative wall time", Edited(good, "\"wall_ns\": 40000", "\"wall_ns\": -40000"),
       "steps[1].wall_ns: -40000 ns is negative: not a length of time"},
      {"a negative idle time", Edited(good, "\"idle_ns\": 15000", "\"idle_ns\": -15000"),
       "steps[1].devices[0].idle_ns: -15000 ns is negative: not a length of time"},
      {"device time that does not add up to the step",
       Edited(good, "\"idle_ns\": 15000", "\"idle_ns\": 15001"),
       "steps[1].devices[0]: compute, exposed communication and memory, and idle time add up to "
       "40001 ns, not the step's wall_ns 40000"},
      {"a float sum that disagrees with its exact sum",
       Edited(good, "\"cuda_total_us\": 85, \"self_cuda_us\": 85, \"cpu_total_ns\": 30000",
              "\"cuda_total_us\": 1e308, \"self_cuda_us\": 85, \"cpu_total_ns\": 30000"),
       "table[1].cuda_total_us: 1e+308 us disagrees with the exact sum beside it (85000 ns)"},
      {"a self time of INT64_MIN",
       Edited(good,
              "\"self_cpu_us\": 22, \"cuda_total_us\": 85, \"self_cuda_us\": 85, "
              "\"cpu_total_ns\": 30000, \"self_cpu_ns\": 22000",
              "\"self_cpu_us\": -9223372036854775.808, \"cuda_total_us\": 85, \"self_cuda_us\": "
              "85, \"cpu_total_ns\": 30000, \"self_cpu_ns\": -9223372036854775808"),
       "the table rows' total self_cpu_ns: the merged sum passes the largest 64-bit integer; the "
       "summaries' numbers cannot be right"},
      {"a stats sum of INT64_MIN",
       Edited(good, "\"sum\": 50000, \"sum_squares\": \"2500000000\"",
              "\"sum\": -9223372036854775808, \"sum_squares\": \"2500000000\""),
       "kernels.kernels[1].stats.sum: disagrees with the values and their counts"},
      {"a ledger time near -2^63",
       Edited(good, "\"start_ns\": 150000, \"end_ns\": 200000",
              "\"start_ns\": -9223372036854775000, \"end_ns\": 200000"),
       "collectives[0].calls[0].start_ns: -9223372036854775000 ns is out of range (times lie "
       "within +-2^62 ns)"},
      {"a row of another rank", Edited(good, "\"origin\": [0, 1]", "\"origin\": [5, 1]"),
       "table[1].origin: rank 5 is not a rank of the sources"},
      {"a stack twice", Edited(good, "\"stacks\": []", "\"stacks\": [\n [\"a\", 1],\n [\"a\", 2]]"),
       "stacks[1]: stacks are listed once each, in order"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    TempFile t("edited.pfs", c.text);
    for (const char* command : {"table", "steps", "merge"}) {
      auto r = Run({command, t.path});
      INFO(command);
      CHECK(r.code == 2);
      CHECK(FirstLine(r.err) ==
            "profana: error: " + t.path + ": not a usable summary: " + c.message);
    }
  }
  // The summary as written passes.
  TempFile t("good.pfs", good);
  CHECK(Run({"steps", t.path}).code == 0);
}
