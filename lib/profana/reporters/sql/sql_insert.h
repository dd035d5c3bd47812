// SqlInsert: one prepared INSERT of a database profana writes, its values bound in column order
// and the row added by Row(). Text is bound without a copy (the trace's string pool outlives the
// statement's step). The first failure is kept (status()) and every later call does nothing, so
// a writer checks once per table instead of once per value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "profana/base/status.h"
#include "profana/importers/sqlite/query.h"

struct sqlite3;

namespace profana::report {

class SqlInsert {
 public:
  // INSERT INTO table VALUES (?, ..., ?), a parameter per column the table has.
  SqlInsert(sqlite3* db, const std::string& table);

  SqlInsert& Int(int64_t v);
  SqlInsert& Real(double v);
  SqlInsert& Text(std::string_view v);  // the bytes must stay put until Row()
  SqlInsert& Null();
  // v, or NULL when v equals `absent`.
  SqlInsert& IntOr(int64_t v, int64_t absent) { return v == absent ? Null() : Int(v); }
  // Adds the row (every column must have had its value); the next value binds the first column.
  void Row();

  const Status& status() const { return status_; }

 private:
  void Fail(const char* what);

  sqlite3* db_;
  std::string table_;
  sqlite::Stmt stmt_;
  int columns_ = 0;
  int column_ = 0;
  Status status_;
};

// Runs SQL text without results (DDL, PRAGMAs); errors name `what`.
Status ExecSql(sqlite3* db, const std::string& sql, std::string_view what);

}  // namespace profana::report
