// An input is opened once: the sniff, each importer's way in (the stream, the map, the whole
// read) and the second read of the source scan all use the descriptor InputFile opened. Each case
// removes the path before reading: a reader that opened the path again would find nothing.
#include "profana/base/input_file.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "profana/importers/chrome_json/source_scan.h"
#include "profana/importers/importer.h"
#include "profana/io/native_writer.h"
#include "profana/job/input_kind.h"
#include "profana/job/load_input.h"
#include "profana/job/summary_file.h"
#include "test_util.h"

namespace {

using profana::InputFile;
using profana::test::TestData;

// A copy of `bytes` opened, then removed from its folder.
InputFile OpenedAndRemoved(const std::string& bytes, const std::string& name) {
  std::string path = profana::test::TempPath(name);
  profana::test::WriteFile(path, bytes);
  auto file = InputFile::Open(path);
  REQUIRE(file.ok());
  REQUIRE(std::remove(path.c_str()) == 0);
  return std::move(*file);
}

size_t EventsOf(const std::string& path) {
  auto loaded = profana::LoadTrace(path);
  REQUIRE(loaded.ok());
  return loaded->trace.events.size();
}

}  // namespace

TEST_CASE("every importer reads the descriptor it is given, not the path",
          "[importers][input_file]") {
  std::string plain = TestData("job/two_ranks/rank0.json");
  std::string gzipped =
      TestData("traces/hta/critical_path/cuda_event_sync/event_sync_trace.json.gz");
  for (const std::string& path : {plain, gzipped}) {
    INFO(path);
    InputFile file = OpenedAndRemoved(profana::test::ReadFile(path), "opened_once.json");
    CHECK(file.regular());
    CHECK(profana::job::InputKindOf(file) == profana::job::InputKind::kTrace);
    auto loaded = profana::LoadTrace(file);  // the streaming reader: its ByteSource and its map
    REQUIRE(loaded.ok());
    CHECK(loaded->trace.events.size() == EventsOf(path));
    CHECK(loaded->trace.events.size() > 0);
    // The second read of the source scan (cudaStreamWaitEvent's args) reads it again.
    auto source = profana::json::ReadSourceFile(file, loaded->trace, {});
    REQUIRE(source.ok());
    CHECK(source->has_value());
  }

  // The native format's map.
  auto json = profana::LoadTrace(plain);
  REQUIRE(json.ok());
  InputFile native = OpenedAndRemoved(profana::native::WriteNative(json->trace), "opened_once.pfa");
  auto mapped = profana::LoadTrace(native);
  REQUIRE(mapped.ok());
  CHECK(mapped->trace.metadata.container.rfind("profana-native ", 0) == 0);
  CHECK(mapped->trace.events.size() == json->trace.events.size());

  // A database, read whole (SQLite opens the bytes in memory).
  std::string db = profana::test::TempPath("opened_once.sqlite");
  REQUIRE(profana::test::BuildSqliteDatabase(
              profana::test::ReadFile(TestData("nsys/schema_3_25.sql")), db) == "");
  size_t db_events = EventsOf(db);
  InputFile database = OpenedAndRemoved(profana::test::ReadFile(db), "opened_once_copy.sqlite");
  std::remove(db.c_str());
  auto read = profana::LoadTrace(database);
  REQUIRE(read.ok());
  CHECK(read->trace.events.size() == db_events);
}

TEST_CASE("a summary file is told apart and read from one descriptor", "[importers][input_file]") {
  std::string trace = TestData("job/two_ranks/rank0.json");
  std::string summary = profana::test::TempPath("opened_once.summary.json");
  auto written = profana::test::Run({"summarize", trace, "-o", summary});
  REQUIRE(written.code == 0);
  InputFile file = OpenedAndRemoved(profana::test::ReadFile(summary), "opened_once.summary.json");
  std::remove(summary.c_str());
  CHECK(profana::job::InputKindOf(file) == profana::job::InputKind::kSummary);
  auto read = profana::job::ReadSummaryFile(file);
  REQUIRE(read.ok());
  REQUIRE(read->sources.size() == 1);
  CHECK(read->sources.front().rank == 0);

  // A load keeps its input open for what reads it again.
  std::vector<profana::job::LoadNote> notes;
  auto loaded = profana::job::LoadInput(trace, {}, &notes);
  REQUIRE(loaded.ok());
  REQUIRE(loaded->file);
  CHECK(loaded->file->path() == trace);
}
