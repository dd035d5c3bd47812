// Round trips over every trace in testdata/ (the oracle sessions, the real traces, the damaged
// inputs that still load): every command prints on the native file exactly what it prints on the
// original; the text twin reads back to the same bytes; the Chrome trace written from the native
// file is strict JSON, re-imports to the same table, and is a fixed point (JSON -> native -> JSON).
#include <simdjson.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "fmt/format.h"
#include "profana/base/input_buffer.h"
#include "profana/importers/importer.h"
#include "profana/io/chrome_trace_writer.h"
#include "profana/io/native_reader.h"
#include "profana/io/native_text.h"
#include "profana/io/native_writer.h"
#include "profana/passes/event_times.h"
#include "profana/passes/function_events.h"
#include "test_util.h"

namespace fs = std::filesystem;

namespace {

std::vector<std::string> AllTraces() {
  std::vector<std::string> files;
  for (const char* dir : {"oracle", "traces", "bad"}) {
    for (const auto& e : fs::recursive_directory_iterator(profana::test::TestData(dir))) {
      std::string p = e.path().string(), f = e.path().filename().string();
      bool trace = std::string(dir) == "oracle"
                       ? (f == "trace.json" || f == "trace.kineto_like.json")
                       : f.find(".json") != std::string::npos;
      if (e.is_regular_file() && trace) files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// Output of `profana ARGS FILE`, with the file's name replaced so two inputs compare; info's
// container line (only on native files) dropped.
std::string Normalised(const profana::test::CliRun& r, const std::string& file) {
  std::string text = fmt::format("rc {}\n{}\n--- stderr\n{}", r.code, r.out, r.err);
  text = Replace(text, file, "FILE");
  size_t at = text.find("container:       ");
  if (at != std::string::npos) text.erase(at, text.find('\n', at) + 1 - at);
  return text;
}

std::string Output(std::vector<std::string> args, const std::string& file) {
  args.push_back(file);
  return Normalised(profana::test::Run(args), file);
}

// Under ASan + UBSan (about 20x slower) the large real traces get the native round trip and
// `table` only; the rotating command and the Chrome round trip run on the files under 1 MB, which
// still cover every writer path. The release build checks everything on every file.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

struct ScratchDir {
  fs::path path = fs::temp_directory_path() / ("profana-native-test-" + std::to_string(getpid()));
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE(
    "every trace in testdata: same output from the native file, text twin and Chrome trace round "
    "trips",
    "[native]") {
  ScratchDir tmp;
  simdjson::dom::parser strict;
  std::vector<std::string> files = AllTraces();
  REQUIRE(files.size() >= 100);
  // `table` on every file; the other commands rotate over the files, so each command meets every
  // kind of trace while the suite stays fast under ASan (it imports each original only twice).
  const std::vector<std::vector<std::string>> commands = {
      {"table", "--format", "json"},
      {"stacks"},
      {"stacks", "--metric", "self_cuda", "--stacks", "ops"},
      {"tree"},
      {"info"},
      {"info", "--format", "json"},
      {"table", "--format", "csv", "--group-by-input-shape"},
      {"tree", "--format", "json"}};
  int loaded = 0, compared = 0;
  for (size_t n = 0; n < files.size(); ++n) {
    const std::string& file = files[n];
    INFO(file);
    auto loaded_trace = profana::LoadTrace(file);
    if (!loaded_trace.ok()) continue;  // damaged beyond use: the bad-input tests cover it
    ++loaded;
    const profana::Trace* trace = &loaded_trace->trace;
    // As `convert` writes it: with the function event index, which the commands below then use.
    std::string plain = profana::native::WriteNative(*trace);
    std::string native = profana::native::WriteNative(
        *trace, profana::passes::MakeFunctionEventIndex(
                    *trace, profana::passes::BuildFunctionEvents(*trace)));
    std::string path = (tmp.path / (std::to_string(n) + ".pfa")).string();
    WriteBytes(path, native);
    auto table = profana::test::Run({"table", file});
    CHECK(Output({"table"}, path) == Normalised(table, file));
    // The text twin holds the same model (less the index): reading it back writes the same bytes.
    auto from_text =
        profana::native::ReadNativeText(profana::native::WriteNativeText(*trace), "twin");
    REQUIRE(from_text.ok());
    CHECK(profana::native::WriteNative(*from_text) == plain);
    ++compared;
    if (kSanitized && fs::file_size(file) > (1 << 20)) continue;

    const auto& other = commands[n % commands.size()];
    INFO("profana " << other[0] << " " << (other.size() > 1 ? other[1] : ""));
    CHECK(Output(other, path) == Output(other, file));
    ++compared;

    // native -> Chrome JSON: strict JSON, the same table (standard output: the original's
    // diagnostics are not Chrome-trace events), and JSON -> native -> JSON gives the same text.
    auto from_native = profana::LoadTrace(path);
    REQUIRE(from_native.ok());
    std::string json = profana::io::WriteChromeTrace(from_native->trace);
    simdjson::dom::element doc;
    CHECK(strict.parse(json).get(doc) == simdjson::SUCCESS);
    std::string json_path = (tmp.path / (std::to_string(n) + ".json")).string();
    WriteBytes(json_path, json);
    CHECK(profana::test::Run({"table", json_path}).out == table.out);
    auto again = profana::LoadTrace(json_path);
    REQUIRE(again.ok());
    std::string native2 = profana::native::WriteNative(again->trace);
    WriteBytes(path, native2);
    auto from_native2 = profana::LoadTrace(path);
    REQUIRE(from_native2.ok());
    CHECK(profana::io::WriteChromeTrace(from_native2->trace) == json);
    CHECK(profana::native::WriteNative(from_native2->trace, from_native2->function_index) ==
          native2);
    fs::remove(path);
    fs::remove(json_path);
  }
  CHECK(loaded >= 100);
  CHECK(compared >= (kSanitized ? 150 : 200));
}

namespace {

// Every column and count of two function event lists, column by column, and every event's times.
void CheckSameList(const profana::Trace& ta, const profana::passes::FunctionEventList& a,
                   const profana::Trace& tb, const profana::passes::FunctionEventList& b) {
  CHECK(a.source == b.source);
  CHECK(a.synthetic_record == b.synthetic_record);
  CHECK(a.synthetic_row == b.synthetic_row);
  CHECK(a.name == b.name);
  CHECK(a.trace_name == b.trace_name);
  CHECK(a.thread == b.thread);
  CHECK(a.start_ns == b.start_ns);
  CHECK(a.end_ns == b.end_ns);
  CHECK(a.device_type == b.device_type);
  CHECK(a.scope == b.scope);
  CHECK(a.sequence_nr == b.sequence_nr);
  CHECK(a.fwd_thread == b.fwd_thread);
  CHECK(a.input_shapes == b.input_shapes);
  CHECK(a.stack == b.stack);
  CHECK(a.parent == b.parent);
  CHECK(a.child_begin == b.child_begin);
  CHECK(a.child_index == b.child_index);
  CHECK(a.kernel_begin == b.kernel_begin);
  CHECK(a.kernel_index == b.kernel_index);
  REQUIRE(a.size() == b.size());
  size_t bytes_differ = 0;
  for (size_t i = 0; i < a.size(); ++i)
    bytes_differ += a.CpuMemory(i) != b.CpuMemory(i) || a.CudaMemory(i) != b.CudaMemory(i);
  CHECK(bytes_differ == 0);
  CHECK(a.origin_ns == b.origin_ns);
  CHECK(a.legacy == b.legacy);
  CHECK(a.has_memory_records == b.has_memory_records);
  CHECK(a.removed_duplicates == b.removed_duplicates);
  CHECK(a.kernels_attributed == b.kernels_attributed);
  CHECK(a.kernels_unattributed == b.kernels_unattributed);
  CHECK(a.external_id_mismatches == b.external_id_mismatches);
  REQUIRE(a.size() == b.size());
  profana::passes::EventTimes times_a(ta, a), times_b(tb, b);
  size_t differ = 0;
  for (uint32_t i = 0; i < a.size(); ++i) {
    profana::passes::EventTime x = times_a[i], y = times_b[i];
    differ += x.cpu_total_ns != y.cpu_total_ns || x.self_cpu_ns != y.self_cpu_ns ||
              x.cuda_total_ns != y.cuda_total_ns || x.self_cuda_ns != y.self_cuda_ns ||
              x.self_cpu_memory != y.self_cpu_memory || x.self_cuda_memory != y.self_cuda_memory ||
              x.cpu_total_us != y.cpu_total_us || x.self_cpu_us != y.self_cpu_us ||
              x.cuda_total_us != y.cuda_total_us || x.self_cuda_us != y.self_cuda_us;
  }
  CHECK(differ == 0);
}

}  // namespace

TEST_CASE(
    "every trace in testdata: the function event index of a native file gives the same function "
    "events",
    "[native]") {
  int indexed = 0;
  for (const std::string& file : AllTraces()) {
    INFO(file);
    auto loaded = profana::LoadTrace(file);
    if (!loaded.ok()) continue;
    const profana::Trace& trace = loaded->trace;
    profana::passes::FunctionEventList built = profana::passes::BuildFunctionEvents(trace);
    std::string bytes =
        profana::native::WriteNative(trace, profana::passes::MakeFunctionEventIndex(trace, built));
    // Read in place, as from a mapped file: the index's columns are views of `bytes`.
    auto backing = std::make_shared<std::string>(std::move(bytes));
    auto read = profana::native::ReadNative(*backing, "t.pfa", backing);
    REQUIRE(read.ok());
    REQUIRE(read->function_index.has_value());
    CHECK(read->function_index->source.is_view());
    // A list built from events keeps bytes only for the events that have some, and only when
    // the trace has [memory] records; the index has a row per event either way.
    CHECK(built.cpu_memory.empty());
    CHECK(built.cuda_memory.empty());
    CHECK(built.memory.count() <= (trace.memory.size() > 0 ? built.size() : 0));
    CHECK(read->function_index->cpu_memory.size() == built.size());
    CHECK(read->function_index->cuda_memory.size() == built.size());
    CHECK(read->trace.events.start_ns.is_view());
    CheckSameList(read->trace,
                  profana::passes::BuildFunctionEvents(read->trace, read->function_index), trace,
                  built);
    ++indexed;
  }
  CHECK(indexed >= 100);
}
