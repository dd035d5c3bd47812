// The streaming, parallel JSON importer builds exactly the model of the whole-file importer: the
// native serialisation of both (strings, columns, metadata, diagnostics) is compared byte for
// byte, on every JSON trace in testdata/ and on synthetic traces whose strings put escaped
// quotes, backslashes and brackets across every possible read and batch boundary.
#include "profana/importers/chrome_json/streaming_import.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <vector>

#include "fmt/format.h"
#include "profana/base/gzip_writer.h"
#include "profana/base/input_buffer.h"
#include "profana/importers/chrome_json/chrome_json_importer.h"
#include "profana/importers/importer.h"
#include "profana/io/native_writer.h"
#include "profana/passes/function_events.h"
#include "test_util.h"

namespace fs = std::filesystem;
using profana::json::StreamOptions;
using profana::test::WriteFile;

namespace {

// The whole-file model, or "" when the file is not a trace (oracle sessions hold other JSON).
std::string WholeFileModel(const std::string& path) {
  auto input = profana::ReadInput(path);
  REQUIRE(input.ok());
  auto trace = profana::json::ImportChromeJson(*input);
  if (!trace.ok()) return "";
  return profana::native::WriteNative(*trace);
}

// The streamed model, or "" when the streaming importer handed the file back.
std::string StreamedModel(const std::string& path, const StreamOptions& options) {
  auto attempt = profana::json::StreamChromeJson(path, options);
  if (!attempt.trace) return "";
  return profana::native::WriteNative(*attempt.trace);
}

// Reads of `read` bytes, batches of `batch`, `workers` parser threads.
StreamOptions Opts(size_t read, size_t batch, int workers) {
  StreamOptions o;
  o.read_bytes = read;
  o.batch_bytes = batch;
  o.workers = workers;
  return o;
}

}  // namespace

TEST_CASE("streamed import equals the whole-file import on every JSON trace in testdata",
          "[streaming]") {
  std::vector<std::string> files;
  for (const char* dir : {"traces", "oracle", "gpu", "memory", "golden"}) {
    if (!fs::exists(profana::test::TestData(dir))) continue;
    for (const auto& e : fs::recursive_directory_iterator(profana::test::TestData(dir))) {
      std::string p = e.path().string();
      if (e.is_regular_file() && (p.size() > 5 && (p.substr(p.size() - 5) == ".json" ||
                                                   p.substr(p.size() - 8) == ".json.gz")))
        files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 100);
  size_t streamed = 0;
  for (const std::string& file : files) {
    INFO(file);
    std::string whole = WholeFileModel(file);
    if (whole.empty()) {
      CHECK(StreamedModel(file, {}).empty());
      continue;
    }
    // Odd small reads and batches put boundaries everywhere; three workers reorder the parsing.
    std::string small = StreamedModel(file, Opts(4093, 1500, 3));
    std::string defaults = StreamedModel(file, {});
    REQUIRE(!small.empty());  // every trace in testdata is well formed: none falls back
    CHECK(small == whole);
    CHECK(defaults == whole);
    ++streamed;
  }
  CHECK(streamed >= 100);
}

TEST_CASE("streamed import: boundaries inside strings with escapes and brackets", "[streaming]") {
  // Names full of what a naive splitter would cut at: quotes, backslash runs, brackets, braces.
  const char* names[] = {R"(a\"b)",        R"(]}{[)",          R"(\\)", R"(\\\"],{)", R"(x\\\\\"y)",
                         R"(\u005d\"}\\)", R"({\"ph\":\"X\"})"};
  std::string text =
      "{\"schemaVersion\": 1, \"deviceProperties\": [{\"name\": \"G\\\"PU]\"}], \"traceEvents\": "
      "[\n";
  for (int i = 0; i < 60; ++i) {
    text += fmt::format(
        "{}{{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"{}\", \"pid\": 1, \"tid\": {}, "
        "\"ts\": {}.{:03d}, \"dur\": {}, "
        "\"args\": {{\"Input Dims\": [[{}], []], \"Call stack\": \"{};f{}\", \"External id\": "
        "{}}}}}",
        i ? ",\n  " : "  ", names[i % 7], i % 3, 1000 + i, i * 7 % 1000, 5 + i % 4, i,
        names[(i + 3) % 7], i, i);
  }
  text += "\n], \"traceName\": \"t]\\\"\", \"baseTimeNanoseconds\": 17}\n";
  fs::path dir = fs::temp_directory_path() / "profana_streaming_test";
  fs::create_directories(dir);
  std::string plain = (dir / "escapes.json").string(), gz = (dir / "escapes.json.gz").string();
  WriteFile(plain, text);
  auto zipped = profana::GzipBytes(text);
  REQUIRE(zipped.ok());
  WriteFile(gz, *zipped);
  std::string whole = WholeFileModel(plain);
  for (size_t read = 64; read <= 64 + 70; ++read) {
    for (size_t batch : {1, 37, 200}) {
      INFO("read " << read << ", batch " << batch);
      CHECK(StreamedModel(plain, Opts(read, batch, 2)) == whole);
    }
  }
  CHECK(StreamedModel(gz, Opts(100, 50, 2)) == WholeFileModel(gz));
  // One parser thread, as each of a job's traces read at once gets on two cores.
  CHECK(StreamedModel(plain, Opts(100, 37, 1)) == whole);
}

TEST_CASE("a plain file's batches cut where an event likely ends: wrong cuts are read again",
          "[streaming]") {
  // Batches are cut after a '}' followed by a comma and a '{', unscanned. Traps for that: names
  // holding "}, {", args holding lists of objects, an event nested deeper than the JSON limit, and
  // members after the events array holding lists of objects. Each wrong cut fails its batch's
  // check, and the rest of the file is scanned: the model is the whole-file import's either way.
  auto trace = [](bool names, bool lists, bool deep, bool after) {
    std::string text = "{\"schemaVersion\": 1, \"traceEvents\": [\n";
    for (int i = 0; i < 400; ++i) {
      std::string name = names && i % 50 == 17 ? "a}, {b" : fmt::format("op{}", i % 9);
      std::string args = lists && i % 60 == 33 ? "\"list\": [{\"a\": 1}, {\"b\": [2]}], " : "";
      if (deep && i == 300)
        args = "\"deep\": " + std::string(1030, '[') + std::string(1030, ']') + ", ";
      text += fmt::format(
          "{}{{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"{}\", \"pid\": 1, \"tid\": 1, "
          "\"ts\": {}, \"dur\": 3, \"args\": {{{}\"External id\": {}}}}}",
          i ? ",\n" : "", name, 10 * i, args, i);
    }
    text += "\n]";
    if (after) text += ", \"deviceProperties\": [{\"id\": 0}, {\"id\": 1}], \"traceName\": \"t\"";
    return text + "}\n";
  };
  fs::path dir = fs::temp_directory_path() / "profana_streaming_test";
  fs::create_directories(dir);
  std::string path = (dir / "traps.json").string();
  for (int traps = 0; traps < 16; ++traps) {
    bool names = traps & 1, lists = traps & 2, deep = traps & 4, after = traps & 8;
    INFO("names " << names << ", lists " << lists << ", deep " << deep << ", after " << after);
    WriteFile(path, trace(names, lists, deep, after));
    std::string whole = WholeFileModel(path);
    CHECK(whole.empty() == deep);  // too deep for the whole-file importer as well
    // Batches of every size from 1 byte to all of the file: the cuts fall everywhere.
    size_t wrong = 0;
    for (size_t batch = 1; batch < (size_t{1} << 20); batch = batch * 5 / 4 + 13) {
      INFO("batch " << batch);
      auto attempt = profana::json::StreamChromeJson(path, Opts(4096, batch, 2));
      if (deep) {
        CHECK(!attempt.trace);
        continue;
      }
      REQUIRE(attempt.trace);
      CHECK(profana::native::WriteNative(*attempt.trace) == whole);
      wrong += attempt.guessed_wrong;
    }
    if (!deep) CHECK((wrong > 0) == (names || lists || after));
  }
}

TEST_CASE("streamed import hands damaged or odd input back to the whole-file importer",
          "[streaming]") {
  fs::path dir = fs::temp_directory_path() / "profana_streaming_test";
  fs::create_directories(dir);
  const std::string good =
      R"({"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 2, "pid": 1, "tid": 1}]})";
  struct Case {
    const char* what;
    std::string text;
  } cases[] = {
      {"cut short", good.substr(0, good.size() - 10)},
      {"trailing comma", R"({"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 2},]})"},
      {"a number among events",
       R"({"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 2}, 5]})"},
      {"no traceEvents", R"({"other": []})"},
      {"traceEvents not an array", R"({"traceEvents": {}})"},
      {"two traceEvents", R"({"traceEvents": [], "traceEvents": []})"},
      {"syntax error inside an event",
       R"({"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 2,, "pid": 1}]})"},
      {"not JSON", "SQLite format 3\0"},
      // The events array closed by a brace, the object by the next one: every bracket pairs up
      // by count, but not by kind.
      {"array closed by a brace",
       R"({"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 2, "pid": 1, "tid": 1}}})"},
      {"bare array closed by a brace", R"([{"ph": "X", "name": "a", "ts": 1, "dur": 2}})"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    std::string path = (dir / "odd.json").string();
    WriteFile(path, c.text);
    auto attempt = profana::json::StreamChromeJson(path, Opts(64, 16, 2));
    CHECK(!attempt.trace);
    CHECK(!attempt.fallback_reason.empty());
  }
  std::string path = (dir / "good.json").string();
  WriteFile(path, good);
  auto attempt = profana::json::StreamChromeJson(path, Opts(64, 16, 2));
  REQUIRE(attempt.trace);
  CHECK(attempt.trace->events.size() == 1);
}

namespace {

// A trace read whole, read streamed with columns left unread, and its native file (of the whole
// model) loaded with the same columns unread.
struct ReadThreeWays {
  ReadThreeWays(const std::string& file, const profana::UnreadColumns& unread)
      : native((fs::temp_directory_path() / "profana_unread_test.pfa").string()) {
    StreamOptions leave;
    leave.unread = unread;
    all = profana::json::StreamChromeJson(file, {});
    some = profana::json::StreamChromeJson(file, leave);
    REQUIRE(all.trace);
    REQUIRE(some.trace);
    WriteFile(native, profana::native::WriteNative(*all.trace));
    profana::LoadOptions load;
    load.unread = unread;
    auto loaded = profana::LoadTrace(native, load);
    REQUIRE(loaded.ok());
    mapped = std::move(*loaded);
  }
  ~ReadThreeWays() { fs::remove(native); }
  std::vector<const profana::Trace*> unread() const { return {&*some.trace, &mapped->trace}; }

  std::string native;
  profana::json::StreamAttempt all, some;
  std::optional<profana::LoadedTrace> mapped;
};

}  // namespace

TEST_CASE(
    "columns a command leaves unread are one value each, whatever the format; the rest is "
    "the model as read",
    "[streaming]") {
  // A Kineto trace with stacks, shapes and flows.
  std::string file = profana::test::TestData(
      "traces/kineto/be239c04/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  profana::UnreadColumns unread;
  unread.input_shapes = unread.stacks = unread.collectives = unread.flows = true;
  ReadThreeWays read(file, unread);
  const profana::Trace& all = *read.all.trace;
  const profana::EventTable& a = all.events;
  CHECK_FALSE(a.input_shapes.is_uniform());
  CHECK_FALSE(a.stack.is_uniform());
  CHECK(all.flows.size() > 0);
  CHECK(all.stacks.size() > 1);
  for (const profana::Trace* t : read.unread()) {
    const profana::EventTable& b = t->events;
    CHECK(b.size() == a.size());
    CHECK(b.input_shapes.is_uniform());
    CHECK(b.stack.is_uniform());
    CHECK(b.sequence_nr.is_uniform());
    CHECK(b.fwd_thread.is_uniform());
    CHECK(b.comm.is_uniform());
    CHECK(b.input_shapes[b.size() - 1].value == 0);
    CHECK(b.stack[0].value == 0);
    CHECK(b.sequence_nr[0] == -1);
    // Flows are counted, not kept.
    CHECK(t->flows.size() == all.flows.size());
    CHECK(t->flows.id.is_uniform());
    // Everything else is the model as read.
    CHECK(b.name == a.name);
    CHECK(b.trace_name == a.trace_name);
    CHECK(b.kind == a.kind);
    CHECK(b.thread == a.thread);
    CHECK(b.start_ns == a.start_ns);
    CHECK(b.end_ns == a.end_ns);
    CHECK(b.external_id == a.external_id);
    CHECK(b.correlation == a.correlation);
    CHECK(b.device == a.device);
    CHECK(t->stacks.size() == all.stacks.size());
    CHECK(t->diagnostics.CountAtLeast(profana::Severity::kInfo) ==
          all.diagnostics.CountAtLeast(profana::Severity::kInfo));
  }
}

TEST_CASE(
    "[memory] records' addresses, totals and device ids can be left unread: the bytes each event "
    "holds are the same",
    "[streaming]") {
  // A live PyTorch 2.11 session with profile_memory: records with every field.
  std::string file = profana::test::TestData("live/mlp_train/all/trace.json.gz");
  profana::UnreadColumns unread;
  unread.memory_details = true;
  ReadThreeWays read(file, unread);
  const profana::Trace& all = *read.all.trace;
  const profana::MemoryTable& a = all.memory;
  REQUIRE(a.size() > 0);
  CHECK_FALSE(a.addr.is_uniform());
  CHECK_FALSE(a.total_allocated.is_uniform());
  CHECK_FALSE(a.total_reserved.is_uniform());
  profana::passes::FunctionEventList from_all = profana::passes::BuildFunctionEvents(all);
  for (const profana::Trace* t : read.unread()) {
    const profana::MemoryTable& b = t->memory;
    CHECK(b.size() == a.size());
    CHECK(b.addr.is_uniform());
    CHECK(b.total_allocated.is_uniform());
    CHECK(b.total_reserved.is_uniform());
    CHECK(b.device_id.is_uniform());
    CHECK(b.addr[0] == profana::kNoId);
    CHECK(b.total_reserved[b.size() - 1] == profana::kNoId);
    CHECK(b.device_id[0] == -1);
    CHECK(b.ts_ns == a.ts_ns);
    CHECK(b.thread == a.thread);
    CHECK(b.bytes == a.bytes);
    CHECK(b.device_type == a.device_type);
    CHECK(t->events.start_ns == all.events.start_ns);
    profana::passes::FunctionEventList e = profana::passes::BuildFunctionEvents(*t);
    REQUIRE(e.size() == from_all.size());
    size_t with_bytes = 0;
    for (size_t i = 0; i < e.size(); ++i) {
      CHECK(e.CpuMemory(i) == from_all.CpuMemory(i));
      CHECK(e.CudaMemory(i) == from_all.CudaMemory(i));
      with_bytes += e.CpuMemory(i) != 0 || e.CudaMemory(i) != 0;
    }
    CHECK(with_bytes > 0);
  }
}
