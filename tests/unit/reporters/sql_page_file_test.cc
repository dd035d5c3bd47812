// SqlPageFile, SqlRowPipe and SqlInsert: rows written as pages are the rows SQLite's own INSERT
// stores (values, types, row ids), the file passes SQLite's integrity check at every size (one
// leaf, interior levels, overflow pages), and rows out of order or a table the writer cannot
// fill are refused with the table's name.
#include "profana/reporters/sql/sql_page_file.h"

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "profana/reporters/sql/sql_insert.h"
#include "profana/reporters/sql/sql_row_pipe.h"
#include "test_util.h"

namespace profana::report {
namespace {

// A database file SQLite makes with `ddl` (and `page_size`), written by SqlPageFile, then opened
// again for queries.
struct PageDatabase {
  std::string path;
  sqlite3* db = nullptr;
  std::unique_ptr<SqlPageFile> file;

  explicit PageDatabase(const std::string& ddl, int page_size = 4096,
                        size_t entry_budget = SqlPageFile::kIndexEntryBudget)
      : path(test::TempPath("pages.sqlite")) {
    std::remove(path.c_str());
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(
        ExecSql(db, "PRAGMA page_size = " + std::to_string(page_size) + "; " + ddl, "tables").ok());
    Result<std::unique_ptr<SqlPageFile>> opened = SqlPageFile::Open(db, path, path, entry_budget);
    sqlite3_close(db);
    db = nullptr;
    if (opened.ok())
      file = std::move(*opened);
    else
      open_status = opened.status();
  }
  ~PageDatabase() {
    if (db) sqlite3_close(db);
    std::remove(path.c_str());
  }
  // Finishes the file and opens it with SQLite, which fills the indexes left empty.
  void Reopen() {
    REQUIRE(file->Finish().ok());
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    for (const std::string& index : file->ToRebuild())
      REQUIRE(ExecSql(db, "REINDEX " + index, "reindex").ok());
  }
  std::string Text(const std::string& sql) {
    sqlite3_stmt* s = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(s) == SQLITE_ROW);
    const unsigned char* t = sqlite3_column_text(s, 0);
    std::string v = t ? reinterpret_cast<const char*>(t) : "NULL";
    sqlite3_finalize(s);
    return v;
  }
  int64_t Int(const std::string& sql) { return std::stoll(Text(sql)); }

  Status open_status;
};

constexpr const char* kTables =
    "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, x REAL, n);"
    "CREATE TABLE u (id INTEGER PRIMARY KEY, k INTEGER);";

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

TEST_CASE("sql pages: rows added on a thread arrive whole, in order, with their text", "[sql]") {
  for (bool threaded : {false, true}) {
    CAPTURE(threaded);
    PageDatabase m(kTables);
    REQUIRE(m.file);
    {
      SqlRowPipe pipe(m.file.get(), threaded);
      REQUIRE(WriteRows(&pipe, -1).ok());
      REQUIRE(pipe.Drain().ok());
    }
    m.Reopen();
    CHECK(m.Text("PRAGMA integrity_check") == "ok");
    CHECK(m.Int("SELECT COUNT(*) FROM t") == 100000);
    CHECK(m.Int("SELECT SUM(id) FROM t") == 4999950000);
    CHECK(m.Int("SELECT COUNT(*) FROM t WHERE name = 'row ' || id") == 100000);
    CHECK(m.Int("SELECT SUM(x * 4) FROM t") == 4999950000);
    CHECK(m.Int("SELECT COUNT(*) FROM t WHERE n IS NULL") == 33334);
    CHECK(m.Int("SELECT COUNT(*) FROM u") == 10000);
    CHECK(m.Int("SELECT SUM(k) FROM u") == -499950000);
    CHECK(m.Text("SELECT name FROM t WHERE id = 77777") == "row 77777");  // by the B-tree
  }
}

TEST_CASE("sql pages: a row id out of order stops the rows and names the table", "[sql]") {
  for (bool threaded : {false, true}) {
    CAPTURE(threaded);
    PageDatabase m(kTables);
    REQUIRE(m.file);
    SqlRowPipe pipe(m.file.get(), threaded);
    Status s = WriteRows(&pipe, 70000);  // its id is row 0's
    REQUIRE_FALSE(s.ok());
    CHECK(s.message() ==
          "database table t: row id 0 after 69999: rows must come in increasing id order");
    CHECK_FALSE(pipe.Drain().ok());
  }
}

TEST_CASE("sql pages: values are stored as SQLite's INSERT stores them", "[sql]") {
  // The same rows through SQLite's INSERT into `want` and as pages into `got`; page size 512, so
  // that 20,000 rows take interior pages on three levels and long texts take overflow chains.
  // With a budget of 30,000 index entries, the indexes are left to SQLite's REINDEX.
  size_t budget = GENERATE(SqlPageFile::kIndexEntryBudget, size_t{30000});
  CAPTURE(budget);
  const std::string ddl =
      "CREATE TABLE got (id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, b, n NUMERIC, "
      "k INTEGER); CREATE INDEX got_k ON got (k); CREATE INDEX got_i ON got (i); "
      "CREATE UNIQUE INDEX got_id ON got (id);";
  PageDatabase m(ddl, 512, budget);
  REQUIRE(m.file);
  sqlite3* want = nullptr;
  std::string want_path = test::TempPath("want.sqlite");
  std::remove(want_path.c_str());
  REQUIRE(sqlite3_open(want_path.c_str(), &want) == SQLITE_OK);
  REQUIRE(ExecSql(want, test::ReplaceAll(ddl, "got", "want"), "want").ok());
  sqlite3_stmt* insert = nullptr;
  REQUIRE(sqlite3_prepare_v2(want, "INSERT INTO want VALUES (?, ?, ?, ?, ?, ?, ?)", -1, &insert,
                             nullptr) == SQLITE_OK);
  REQUIRE(ExecSql(want, "BEGIN", "begin").ok());
  const int64_t ints[] = {
      0,         1,        -1,       127,        128,           -129,      32767,
      -32769,    8388607,  -8388609, 2147483647, -2147483649LL, 1LL << 47, -(1LL << 47) - 1,
      INT64_MAX, INT64_MIN};
  const double reals[] = {0.0, -0.5, 3.0, 1e300, -2.5e-300, std::nan(""), 9007199254740993.0, -0.0};
  {
    SqlRowPipe pipe(m.file.get(), true);
    SqlInsert got(&pipe, "got");
    for (int64_t row = 1; row <= 20000; ++row) {
      int64_t i = ints[row % 16];
      double r = reals[row % 8];
      std::string text(row % 997 == 0 ? 3000 + row : row % 13, static_cast<char>('a' + row % 26));
      bool null_id = row % 5 == 0;  // SQLite's next id: one past the row before
      null_id ? got.Null() : got.Int(row * 3);
      got.Int(i).Real(r).Text(text);
      row % 2 ? got.Int(i) : got.Text(text);
      row % 3 ? got.Real(r) : got.Int(i);  // a REAL for a NUMERIC column: an integer if whole
      row % 4 ? got.Int(row % 50) : got.Null();
      got.Row();
      null_id ? sqlite3_bind_null(insert, 1) : sqlite3_bind_int64(insert, 1, row * 3);
      sqlite3_bind_int64(insert, 2, i);
      sqlite3_bind_double(insert, 3, r);
      sqlite3_bind_text(insert, 4, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
      row % 2 ? sqlite3_bind_int64(insert, 5, i)
              : sqlite3_bind_text(insert, 5, text.data(), static_cast<int>(text.size()),
                                  SQLITE_TRANSIENT);
      row % 3 ? sqlite3_bind_double(insert, 6, r) : sqlite3_bind_int64(insert, 6, i);
      row % 4 ? sqlite3_bind_int64(insert, 7, row % 50) : sqlite3_bind_null(insert, 7);
      REQUIRE(sqlite3_step(insert) == SQLITE_DONE);
      sqlite3_reset(insert);
    }
    REQUIRE(got.Finish().ok());
  }
  sqlite3_finalize(insert);
  REQUIRE(ExecSql(want, "COMMIT", "commit").ok());
  sqlite3_close(want);
  m.Reopen();
  CHECK(m.file->ToRebuild().size() == (budget == 30000 ? 3 : 0));
  CHECK(m.Text("PRAGMA integrity_check") == "ok");
  REQUIRE(ExecSql(m.db, "ATTACH '" + want_path + "' AS w", "attach").ok());
  const std::string columns =
      "id, i, typeof(i), r, typeof(r), t, typeof(t), b, typeof(b), n, typeof(n), k";
  CHECK(m.Int("SELECT COUNT(*) FROM got") == 20000);
  CHECK(m.Int("SELECT COUNT(*) FROM (SELECT " + columns + " FROM got EXCEPT SELECT " + columns +
              " FROM w.want)") == 0);
  CHECK(m.Int("SELECT COUNT(*) FROM (SELECT " + columns + " FROM w.want EXCEPT SELECT " + columns +
              " FROM got)") == 0);
  CHECK(m.Int("SELECT MAX(length(t)) FROM got") == 3000 + 19940);         // over 40 overflow pages
  CHECK(m.Int("SELECT COUNT(*) FROM got WHERE r IS NULL") == 20000 / 8);  // NaN is NULL
  // A whole REAL is stored as an integer, as SQLite's INSERT stores it: -0.0 reads back as 0.0.
  sqlite3_stmt* zero = nullptr;  // row 7, id 21: -0.0, as pages and through SQLite's INSERT
  REQUIRE(sqlite3_prepare_v2(m.db,
                             "SELECT r FROM main.got WHERE id = 21 UNION ALL "
                             "SELECT r FROM w.want WHERE id = 21",
                             -1, &zero, nullptr) == SQLITE_OK);
  int zeros = 0;
  for (; sqlite3_step(zero) == SQLITE_ROW; ++zeros) {
    CHECK(sqlite3_column_type(zero, 0) == SQLITE_FLOAT);
    CHECK(sqlite3_column_double(zero, 0) == 0.0);
    CHECK_FALSE(std::signbit(sqlite3_column_double(zero, 0)));
  }
  sqlite3_finalize(zero);
  CHECK(zeros == 2);
  // The indexes (integrity_check has matched each entry to its row): NULLs, duplicates, the key.
  CHECK(m.Int("SELECT COUNT(*) FROM got INDEXED BY got_k WHERE k IS NULL") == 5000);
  CHECK(m.Int("SELECT COUNT(*) FROM got INDEXED BY got_k WHERE k = 7") == 400);
  CHECK(m.Text("SELECT group_concat(id) FROM (SELECT id FROM got INDEXED BY got_k WHERE k = 10)") ==
        m.Text("SELECT group_concat(id) FROM (SELECT id FROM got NOT INDEXED WHERE k = 10 "
               "ORDER BY id)"));
  CHECK(m.Int("SELECT COUNT(*) FROM got INDEXED BY got_i WHERE i = 9223372036854775807") ==
        20000 / 16);
  CHECK(m.Int("SELECT MIN(i) FROM got INDEXED BY got_i") == INT64_MIN);
  std::remove(want_path.c_str());
}

TEST_CASE("sql pages: a database past 1 GiB leaves SQLite's lock-byte page unused", "[sql]") {
  // The page that holds byte 2^30 is SQLite's for file locks: no table or overflow chain may use
  // it. 130 texts of 8 MiB, on pages of 64 KiB, cross it in the middle of an overflow chain.
  PageDatabase m(
      "CREATE TABLE big (id INTEGER PRIMARY KEY, t TEXT, k INTEGER); "
      "CREATE INDEX big_k ON big (k);",
      65536);
  REQUIRE(m.file);
  {
    SqlRowPipe pipe(m.file.get(), true);
    SqlInsert big(&pipe, "big");
    std::string text(size_t{8} << 20, 'x');
    for (int64_t row = 0; row < 130; ++row) {
      text[0] = text[text.size() - 1] = static_cast<char>('a' + row % 26);
      big.Null().Text(text).Int(row % 7).Row();
    }
    REQUIRE(big.Finish().ok());
  }
  m.Reopen();
  CHECK(m.Int("PRAGMA page_count") * 65536 > (int64_t{1} << 30));
  CHECK(m.Text("PRAGMA integrity_check") == "ok");
  CHECK(m.Int("SELECT COUNT(*) FROM big") == 130);
  // The texts whose chains run across the lock-byte page (row 128 of 130 holds byte 2^30).
  CHECK(m.Int("SELECT COUNT(*) FROM big WHERE id BETWEEN 126 AND 130 AND length(t) = 8388608 AND "
              "substr(t, 1, 1) = substr(t, -1, 1) AND "
              "unicode(substr(t, 1, 1)) = 97 + (id - 1) % 26") == 5);
  CHECK(m.Int("SELECT COUNT(*) FROM big INDEXED BY big_k WHERE k = 3") == 19);
}

TEST_CASE("sql insert: an empty text is '', a view without data too, and NULL is Null()'s",
          "[sql]") {
  PageDatabase m(kTables);
  REQUIRE(m.file);
  {
    SqlRowPipe pipe(m.file.get(), true);
    SqlInsert t(&pipe, "t");
    t.Int(1).Text(std::string_view()).Null().Null().Row();  // the string pool's empty name
    t.Int(2).Text("").Null().Null().Row();
    t.Int(3).Null().Null().Null().Row();
    REQUIRE(t.Finish().ok());
  }
  m.Reopen();
  CHECK(m.Int("SELECT COUNT(*) FROM t WHERE name = ''") == 2);
  CHECK(m.Int("SELECT COUNT(*) FROM t WHERE name IS NULL") == 1);
}

TEST_CASE("sql pages: a table the writer cannot fill is refused by name", "[sql]") {
  std::string wide = "CREATE TABLE wide (c0";
  for (int c = 1; c <= 32; ++c) wide += ", c" + std::to_string(c);
  PageDatabase too_wide(wide + ");");
  CHECK(too_wide.open_status.message() ==
        "database table wide: 33 columns, more than a batch holds (32)");
  PageDatabase keyed("CREATE TABLE s (rank INTEGER, step INTEGER, PRIMARY KEY (rank, step));");
  CHECK(keyed.open_status.message() ==
        "database: index sqlite_autoindex_s_1 before the rows: only an index of one INTEGER "
        "column is written with them");
  PageDatabase named("CREATE TABLE s (name TEXT); CREATE INDEX s_name ON s (name);");
  CHECK(named.open_status.message() ==
        "database: index s_name before the rows: only an index of one INTEGER column is written "
        "with them");
  PageDatabase without_rowid("CREATE TABLE w (k INTEGER PRIMARY KEY, v) WITHOUT ROWID;");
  CHECK(without_rowid.open_status.message() ==
        "database table w: a table WITHOUT ROWID is an index B-tree");
  PageDatabase vacuumed("PRAGMA auto_vacuum = FULL; CREATE TABLE v (k INTEGER);");
  CHECK(vacuumed.open_status.message() ==
        vacuumed.path + ": not the database SQLite was asked to make");
  PageDatabase m(kTables);
  REQUIRE(m.file);
  SqlRowPipe pipe(m.file.get(), false);
  SqlInsert none(&pipe, "none");
  CHECK(none.Finish().message() == "database table none: no such table");
  SqlInsert t(&pipe, "t");
  t.Int(1).Text("x").Row();  // two values of four
  CHECK(t.Finish().message() == "database table t: 2 values for 4 columns");
}

}  // namespace profana::report
