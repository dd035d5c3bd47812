// Round trips over every trace in testdata/ (the oracle sessions, the real traces, the damaged
// inputs that still load): every command prints on the native file exactly what it prints on the
// original; the text twin reads back to the same bytes; the Chrome trace written from the native
// file is strict JSON, re-imports to the same table, and is a fixed point (JSON -> native -> JSON).
#include <simdjson.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "fixtures.h"
#include "fmt/format.h"
#include "profana/importers/importer.h"
#include "profana/io/chrome_trace_writer.h"
#include "profana/io/native_text.h"
#include "profana/io/native_writer.h"
#include "profana/passes/function_events.h"
#include "test_util.h"

using profana::test::ReplaceAll;

namespace fs = std::filesystem;

namespace {

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// Output of `profana ARGS FILE`, with the file's name replaced so two inputs compare; info's
// container line (only on native files) dropped.
std::string Normalised(const profana::test::CliRun& r, const std::string& file) {
  std::string text = fmt::format("rc {}\n{}\n--- stderr\n{}", r.code, r.out, r.err);
  text = ReplaceAll(text, file, "FILE");
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
  std::vector<std::string> files = profana::test::TraceFilesInTestData();
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
