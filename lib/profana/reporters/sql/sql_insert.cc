#include "profana/reporters/sql/sql_insert.h"

#include <sqlite3.h>

#include "fmt/format.h"

namespace profana::report {

SqlInsert::SqlInsert(sqlite3* db, const std::string& table) : db_(db), table_(table) {
  sqlite3_stmt* stmt = nullptr;
  std::string select = "SELECT * FROM " + table;
  if (sqlite3_prepare_v2(db, select.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    Fail("no such table");
    return;
  }
  columns_ = sqlite3_column_count(stmt);
  sqlite3_finalize(stmt);
  std::string sql = "INSERT INTO " + table + " VALUES (";
  for (int c = 0; c < columns_; ++c) sql += c ? ",?" : "?";
  sql += ')';
  if (sqlite3_prepare_v3(db, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) !=
      SQLITE_OK) {
    Fail("cannot prepare the insert");
    return;
  }
  stmt_.reset(stmt);
}

void SqlInsert::Fail(const char* what) {
  if (!status_.ok()) return;
  status_ = Status(ErrorCode::kIo,
                   fmt::format("database table {}: {}: {}", table_, what, sqlite3_errmsg(db_)));
}

SqlInsert& SqlInsert::Int(int64_t v) {
  if (status_.ok() && sqlite3_bind_int64(stmt_.get(), ++column_, v) != SQLITE_OK) Fail("bind");
  return *this;
}

SqlInsert& SqlInsert::Real(double v) {
  if (status_.ok() && sqlite3_bind_double(stmt_.get(), ++column_, v) != SQLITE_OK) Fail("bind");
  return *this;
}

SqlInsert& SqlInsert::Text(std::string_view v) {
  if (status_.ok() && sqlite3_bind_text64(stmt_.get(), ++column_, v.data(), v.size(), SQLITE_STATIC,
                                          SQLITE_UTF8) != SQLITE_OK)
    Fail("bind");
  return *this;
}

SqlInsert& SqlInsert::Null() {
  if (status_.ok() && sqlite3_bind_null(stmt_.get(), ++column_) != SQLITE_OK) Fail("bind");
  return *this;
}

void SqlInsert::Row() {
  int bound = column_;
  column_ = 0;
  if (!status_.ok()) return;
  if (bound != columns_) {
    status_ =
        Status(ErrorCode::kInternal,
               fmt::format("database table {}: {} values for {} columns", table_, bound, columns_));
    return;
  }
  if (sqlite3_step(stmt_.get()) != SQLITE_DONE) Fail("cannot add a row");
  sqlite3_reset(stmt_.get());
}

Status ExecSql(sqlite3* db, const std::string& sql, std::string_view what) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return Status::Ok();
  std::string text = message ? message : sqlite3_errmsg(db);
  sqlite3_free(message);
  return Status(ErrorCode::kIo, fmt::format("database: {}: {}", what, text));
}

}  // namespace profana::report
