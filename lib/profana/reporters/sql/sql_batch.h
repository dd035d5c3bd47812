// A batch of rows for one table, and those rows as a table SQLite reads: one
// `INSERT INTO t SELECT c0, ... FROM profana_batch` adds a whole batch. Binding and stepping an
// INSERT per row made SQLite start its program, open the table and check the schema once per row;
// a statement per batch does that once, and binds nothing (docs/performance.md, "A database").
//
// profana_batch is an eponymous virtual table of the connection, so nothing of it is written to
// the database; it has columns c0 .. c{kSqlBatchColumns-1} and no rows while no batch is set.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/base/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace profana::report {

// One value of a row, as SqlInsert was given it.
struct SqlValue {
  enum class Type : uint8_t { kInt, kReal, kText, kNull };
  int64_t i = 0;      // kInt's value; kText's offset into the batch's text
  double d = 0;       // kReal's value
  uint32_t size = 0;  // kText's bytes (SQLite refuses a value of more than 10^9)
  Type type = Type::kNull;
};

// Rows of one statement: `columns` values each, in order.
struct SqlBatch {
  sqlite3_stmt* stmt = nullptr;
  const std::string* table = nullptr;  // for messages; outlives the batch (SqlInsert's)
  int columns = 0;
  std::vector<SqlValue> values;
  std::string text;

  size_t rows() const { return columns ? values.size() / static_cast<size_t>(columns) : 0; }
};

// The most columns a table of the schema may have (the widest, op, has 30).
inline constexpr int kSqlBatchColumns = 32;

// What profana_batch reads: the batch its next scan returns.
struct SqlBatchSource {
  const SqlBatch* batch = nullptr;
};

// Makes profana_batch of `db` read `source`, which must outlive the connection's use of it.
Status RegisterSqlBatchTable(sqlite3* db, SqlBatchSource* source);

// The INSERT that adds a batch's rows to `table` of `columns` columns.
std::string SqlBatchInsert(const std::string& table, int columns);

}  // namespace profana::report
