// SqlInsert: the rows of one table of a database profana writes, its values given in column
// order and the row added by Row(). Rows are gathered in batches that SqlRowPipe adds to the
// table's pages (on a thread of their own where there are two cores); text is copied into the
// batch, so it need not outlive the call. The first failure is kept and every later call does
// nothing, so a writer checks once per table (Finish) instead of once per value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "profana/base/status.h"
#include "profana/reporters/sql/sql_row_pipe.h"

struct sqlite3;

namespace profana::report {

class SqlInsert {
 public:
  // Rows of `table`, a value per column it has.
  SqlInsert(SqlRowPipe* pipe, const std::string& table);
  ~SqlInsert();  // waits until the rows given are added
  SqlInsert(const SqlInsert&) = delete;
  SqlInsert& operator=(const SqlInsert&) = delete;

  SqlInsert& Int(int64_t v);
  SqlInsert& Real(double v);
  // Copied into the batch. An empty text is '' (a view without data too): NULL is Null()'s.
  SqlInsert& Text(std::string_view v);
  SqlInsert& Null();
  // v, or NULL when v equals `absent`.
  SqlInsert& IntOr(int64_t v, int64_t absent) { return v == absent ? Null() : Int(v); }
  // Adds the row (every column must have had its value); the next value is the first column's.
  void Row();

  // Hands over the rows still gathered and waits until they are added: the first failure of
  // this table or of the pipe, or ok.
  Status Finish();

 private:
  SqlValue& Next(SqlValue::Type type);

  SqlRowPipe* pipe_;
  std::string table_;
  int columns_ = 0;
  int column_ = 0;
  SqlBatch batch_;
  Status status_;
};

// Runs SQL text without results (DDL, PRAGMAs); errors name `what`.
Status ExecSql(sqlite3* db, const std::string& sql, std::string_view what);

}  // namespace profana::report
