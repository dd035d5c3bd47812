// The SQLite layer every database importer reads through (importers/sqlite), on databases built
// at test time: cut names in messages, computed values past the file's size, queries that never
// end, more text than --max-memory, and queries read ahead on a worker.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "fixtures.h"
#include "profana/base/input_buffer.h"
#include "profana/importers/nvprof/nvprof_importer.h"
#include "profana/importers/sqlite/database.h"
#include "profana/importers/sqlite/query.h"
#include "simdjson.h"
#include "test_util.h"

TEST_CASE("a name in a message is cut to an excerpt", "[sqlite]") {
  using profana::sqlite::Excerpt;
  CHECK(Excerpt("aten::mm") == "aten::mm");
  CHECK(Excerpt(std::string(100, 'x'), 10) == "xxxxxxxxxx... (100 bytes)");
  // Never inside a UTF-8 character: "é" is two bytes, the cut at 3 backs up to 2.
  CHECK(Excerpt("ab\xC3\xA9"
                "cdef",
                3) == "ab... (8 bytes)");
}

TEST_CASE("SQLite's limits stop a computed value longer than the file", "[sqlite]") {
  std::string db = profana::test::BuildNvprofDatabase("limits");
  auto input = profana::ReadInput(db);
  REQUIRE(input.ok());
  auto opened = profana::sqlite::Database::Open(*input);
  REQUIRE(opened.ok());
  // 10 MB from a file of a few KB: past SQLITE_LIMIT_LENGTH (the file's size, at least 1 MiB).
  // SQLite's own default (1 GB) let the review's crafted file build 100 MB strings.
  profana::sqlite::Query blob(**opened, "probe", "SELECT zeroblob(10000000) || ''");
  CHECK_FALSE(blob.Next());
  REQUIRE_FALSE(blob.status().ok());
  CHECK(blob.status().message().find(
            "table probe, row 1: database error: string or blob too big") != std::string::npos);
  // printf() gives up quietly past the limit: an empty string, not 100 MB.
  profana::sqlite::Query text(**opened, "probe", "SELECT length(printf('%.*c', 100000000, 'x'))");
  REQUIRE(text.Next());
  CHECK(text.Int(0) == 0);
  std::remove(db.c_str());
}

TEST_CASE("a query that works far more than the file's size explains is stopped", "[sqlite]") {
  std::string db = profana::test::BuildNvprofDatabase("steps");
  auto input = profana::ReadInput(db);
  REQUIRE(input.ok());
  auto opened = profana::sqlite::Database::Open(*input);
  REQUIRE(opened.ok());
  // An endless recursive query: the progress handler ends it once the budget of VM steps for a
  // file this size (50 M plus 64 per byte) is spent, in well under a second.
  profana::sqlite::Query q(**opened, "probe",
                           "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                           "SELECT count(*) FROM c");
  CHECK_FALSE(q.Next());
  CHECK(q.status().code() == profana::ErrorCode::kTooLarge);
  CHECK(q.status().message().find("table probe, row 1: stopped after") != std::string::npos);
  CHECK((*opened)->interrupted());
  std::remove(db.c_str());
}

TEST_CASE("text read from a database counts against the memory budget", "[sqlite]") {
  std::string db = profana::test::BuildNvprofDatabase("budget");
  std::string bytes = profana::test::ReadFile(db);
  // small.sql's StringTable holds 111 bytes of text; a budget of 64 bytes stops at the row
  // that passes it ("-- null --" 10, "aten::linear, seq = 1" 21, "aten::addmm, seq = 2" 20,
  // the mangled kernel name 29: 80 > 64 at row 4).
  profana::InputLimits limits;
  limits.max_bytes = 64;
  auto input = profana::InputFromBytes(bytes, "small.nvvp", limits);
  REQUIRE(input.ok());
  auto trace = profana::nvprof::ImportNvprof(*input);
  REQUIRE_FALSE(trace.ok());
  CHECK(trace.status().code() == profana::ErrorCode::kTooLarge);
  CHECK(trace.status().message().rfind("small.nvvp: table StringTable, row 4, column value: "
                                       "holds more text than the memory limit of 64 B",
                                       0) == 0);
  // The default budget reads it.
  auto plain = profana::InputFromBytes(bytes, "small.nvvp");
  REQUIRE(profana::nvprof::ImportNvprof(*plain).ok());
  std::remove(db.c_str());
}

// Every value kind, over more rows than one block of the read-ahead worker (4096): a REAL, a
// TEXT that reads as a number, a BLOB, NULL and a big integer, in turn.
const char kMixedRows[] =
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9000) "
    "SELECT i, CASE i % 5 WHEN 0 THEN i * 1.5 WHEN 1 THEN printf('%d5.25', i) "
    "WHEN 2 THEN CAST(printf('blob%d', i) AS BLOB) WHEN 3 THEN NULL ELSE i * 4294967296 END, "
    "printf('aten::mm, seq = %d', i) FROM n";

TEST_CASE("a query read ahead on a worker answers as the plain query does", "[sqlite]") {
  std::string db = profana::test::BuildNvprofDatabase("read_ahead");
  auto input = profana::ReadInput(db);
  REQUIRE(input.ok());
  auto opened = profana::sqlite::Database::Open(*input);
  REQUIRE(opened.ok());
  profana::sqlite::Query plain(**opened, "plain", kMixedRows);
  struct Row {
    std::vector<int64_t> ints;
    std::vector<double> doubles;
    std::vector<std::string> texts, types;
  };
  std::vector<Row> expected;
  auto read = [](profana::sqlite::Query& q) {
    Row row;
    for (int k = 0; k < 3; ++k) {
      row.types.push_back(q.TypeName(k));
      row.ints.push_back(q.Int(k));
      row.doubles.push_back(q.Double(k));
      row.texts.emplace_back(q.Text(k));
    }
    return row;
  };
  while (plain.Next()) expected.push_back(read(plain));
  REQUIRE(plain.status().ok());
  REQUIRE(expected.size() == 9000);
  CHECK(expected[0].types[1] == std::string("TEXT"));
  CHECK(expected[0].ints[1] == 15);  // row 1: '15.25' read as an integer
  CHECK(expected[1].types[1] == std::string("a BLOB"));
  CHECK(expected[2].types[1] == std::string("NULL"));
  CHECK(expected[3].texts[1] == "17179869184");  // row 4: 4 * 2^32, an integer as text
  CHECK(expected[4].texts[1] == "7.5");          // row 5: a REAL as SQLite writes it

  profana::sqlite::Query ahead(**opened, "ahead", kMixedRows);
  ahead.ReadAhead(/*min_cores=*/1);
  REQUIRE(ahead.reading_ahead());
  size_t n = 0;
  while (ahead.Next()) {
    REQUIRE(n < expected.size());
    Row row = read(ahead);
    CHECK(row.types == expected[n].types);
    CHECK(row.ints == expected[n].ints);
    CHECK(row.doubles == expected[n].doubles);
    CHECK(row.texts == expected[n].texts);
    CHECK(ahead.row() == static_cast<int64_t>(n + 1));
    ++n;
  }
  CHECK(ahead.status().ok());
  CHECK(n == expected.size());
  CHECK_FALSE(ahead.reading_ahead());  // the connection is free again

  // Left after a few rows, the worker stops; the database serves the next query.
  {
    profana::sqlite::Query left(**opened, "left", kMixedRows);
    left.ReadAhead(1);
    REQUIRE(left.Next());
    CHECK(left.Int(0) == 1);
  }
  profana::sqlite::Query after(**opened, "after", "SELECT count(*) FROM StringTable");
  REQUIRE(after.Next());
  CHECK(after.Int(0) == 7);
  std::remove(db.c_str());
}

TEST_CASE("a query read ahead stops where the plain query stops, with the same message",
          "[sqlite]") {
  std::string db = profana::test::BuildNvprofDatabase("read_ahead_errors");
  std::string bytes = profana::test::ReadFile(db);
  // The step budget: an endless query.
  auto input = profana::InputFromBytes(bytes, "small.nvvp");
  REQUIRE(input.ok());
  auto opened = profana::sqlite::Database::Open(*input);
  REQUIRE(opened.ok());
  profana::sqlite::Query endless(**opened, "probe",
                                 "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                                 "SELECT x FROM c");
  endless.ReadAhead(1);
  int64_t rows = 0;
  while (endless.Next()) ++rows;
  CHECK(rows > 1000000);
  CHECK(endless.status().code() == profana::ErrorCode::kTooLarge);
  CHECK(endless.status().message() ==
        "small.nvvp: table probe, row " + std::to_string(rows + 1) + ": stopped after " +
            std::to_string((*opened)->step_budget()) +
            " SQLite steps, far more than reading a file of this size takes (a crafted "
            "database?)");

  // The text budget: 64 bytes end the StringTable at row 4 (see the budget test above).
  for (bool read_ahead : {false, true}) {
    profana::InputLimits limits;
    limits.max_bytes = 64;
    auto small = profana::InputFromBytes(bytes, "small.nvvp", limits);
    REQUIRE(small.ok());
    auto small_db = profana::sqlite::Database::Open(*small);
    REQUIRE(small_db.ok());
    profana::sqlite::Query q(**small_db, "StringTable", {"_id_", "value"}, "nvprof");
    if (read_ahead) q.ReadAhead(1);
    CHECK(q.reading_ahead() == read_ahead);
    std::vector<std::string> values;
    while (q.Next()) {
      std::string_view value = q.Text(1);
      if (q.status().ok()) values.emplace_back(value);
    }
    CHECK(values ==
          std::vector<std::string>{"-- null --", "aten::linear, seq = 1", "aten::addmm, seq = 2"});
    CHECK(q.status().message().rfind("small.nvvp: table StringTable, row 4, column value: "
                                     "holds more text than the memory limit of 64 B",
                                     0) == 0);
  }
  std::remove(db.c_str());
}
