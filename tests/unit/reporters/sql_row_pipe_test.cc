// SqlInsert and SqlRowPipe: rows handed to a stepping thread arrive whole and in order, their text
// copied, and a failure stops the rows after it and names its table.
#include "profana/reporters/sql/sql_row_pipe.h"

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <string>

#include "profana/reporters/sql/sql_insert.h"

namespace profana::report {
namespace {

struct MemoryDatabase {
  sqlite3* db = nullptr;
  MemoryDatabase() {
    REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
    REQUIRE(ExecSql(db,
                    "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, x REAL, n);"
                    "CREATE TABLE u (id INTEGER PRIMARY KEY, k INTEGER);",
                    "tables")
                .ok());
  }
  ~MemoryDatabase() { sqlite3_close(db); }
  int64_t Int(const char* sql) {
    sqlite3_stmt* s = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql, -1, &s, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(s) == SQLITE_ROW);
    int64_t v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return v;
  }
};

// 100,000 rows of t (about six batches of four values) and one row of u for every tenth.
Status WriteRows(SqlRowPipe* pipe, int64_t duplicate_at) {
  SqlInsert t(pipe, "t"), u(pipe, "u");
  std::string name;
  for (int64_t i = 0; i < 100000; ++i) {
    name = "row " + std::to_string(i);
    t.Int(i == duplicate_at ? 0 : i).Text(name).Real(static_cast<double>(i) / 4);
    i % 3 ? t.Int(i) : t.Null();
    name.assign(name.size(), 'x');  // the insert keeps its own copy of the text
    t.Row();
    if (i % 10 == 0) u.Int(i).Int(-i).Row();
  }
  Status ts = t.Finish(), us = u.Finish();
  return ts.ok() ? us : ts;
}

}  // namespace

TEST_CASE("sql row pipe: rows stepped on a thread arrive whole, in order, with their text",
          "[sql]") {
  for (bool threaded : {false, true}) {
    CAPTURE(threaded);
    MemoryDatabase m;
    {
      SqlRowPipe pipe(m.db, threaded);
      REQUIRE(WriteRows(&pipe, -1).ok());
      REQUIRE(pipe.Drain().ok());
    }
    CHECK(m.Int("SELECT COUNT(*) FROM t") == 100000);
    CHECK(m.Int("SELECT SUM(id) FROM t") == 4999950000);
    CHECK(m.Int("SELECT COUNT(*) FROM t WHERE name = 'row ' || id") == 100000);
    CHECK(m.Int("SELECT SUM(x * 4) FROM t") == 4999950000);
    CHECK(m.Int("SELECT COUNT(*) FROM t WHERE n IS NULL") == 33334);
    CHECK(m.Int("SELECT COUNT(*) FROM u") == 10000);
    CHECK(m.Int("SELECT SUM(k) FROM u") == -499950000);
  }
}

TEST_CASE("sql row pipe: a failed row stops the rows after it and names its table", "[sql]") {
  for (bool threaded : {false, true}) {
    CAPTURE(threaded);
    MemoryDatabase m;
    SqlRowPipe pipe(m.db, threaded);
    Status s = WriteRows(&pipe, 70000);  // its id is row 0's
    REQUIRE_FALSE(s.ok());
    CHECK(s.message() == "database table t: cannot add rows: UNIQUE constraint failed: t.id");
    CHECK_FALSE(pipe.Drain().ok());
    // The batches before the failed one are in (this database rolls the failed INSERT back; a
    // database written without a journal keeps its rows before the failure, and is discarded).
    int64_t rows = m.Int("SELECT COUNT(*) FROM t");
    CHECK(rows > 0);
    CHECK(rows <= 70000);
    CHECK(m.Int("SELECT MAX(id) FROM t") == rows - 1);
    CHECK(m.Int("SELECT COUNT(*) FROM u") == 0);  // u's rows were still gathered
  }
}

TEST_CASE("sql batch table: no rows without a batch, and a table wider than a batch is refused",
          "[sql]") {
  MemoryDatabase m;
  SqlRowPipe pipe(m.db, false);
  CHECK(m.Int("SELECT COUNT(*) FROM profana_batch") == 0);
  // Not in the database's schema: the table belongs to the connection.
  CHECK(m.Int("SELECT COUNT(*) FROM sqlite_schema WHERE name = 'profana_batch'") == 0);
  {
    SqlInsert u(&pipe, "u");
    u.Int(7).Int(70).Row();
    REQUIRE(u.Finish().ok());
  }
  CHECK(m.Int("SELECT k FROM u WHERE id = 7") == 70);
  REQUIRE(ExecSql(m.db,
                  "CREATE TABLE wide (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, "
                  "c12, c13, c14, c15, c16, c17, c18, c19, c20, c21, c22, c23, c24, c25, "
                  "c26, c27, c28, c29, c30, c31, c32);",
                  "wide")
              .ok());
  SqlInsert wide(&pipe, "wide");
  CHECK(wide.Finish().message() == "database table wide: 33 columns, more than a batch holds (32)");
}

}  // namespace profana::report

namespace profana::report {

TEST_CASE("sql insert: an empty text is '', a view without data too, and NULL is Null()'s",
          "[sql]") {
  MemoryDatabase m;
  {
    SqlRowPipe pipe(m.db, true);
    SqlInsert t(&pipe, "t");
    t.Int(1).Text(std::string_view()).Null().Null().Row();  // the string pool's empty name
    t.Int(2).Text("").Null().Null().Row();
    t.Int(3).Null().Null().Null().Row();
    REQUIRE(t.Finish().ok());
  }
  CHECK(m.Int("SELECT COUNT(*) FROM t WHERE name = ''") == 2);
  CHECK(m.Int("SELECT COUNT(*) FROM t WHERE name IS NULL") == 1);
}

}  // namespace profana::report
