// A batch of rows for one table of a database profana writes: what SqlInsert gathers and
// SqlRowPipe hands to the table's SqlTableTree (sql_page_file.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace profana::report {

class SqlTableTree;

// One value of a row, as SqlInsert was given it.
struct SqlValue {
  enum class Type : uint8_t { kInt, kReal, kText, kNull };
  int64_t i = 0;      // kInt's value; kText's offset into the batch's text
  double d = 0;       // kReal's value
  uint32_t size = 0;  // kText's bytes (SQLite refuses a value of more than 10^9)
  Type type = Type::kNull;
};

// Rows of one table: `columns` values each, in order.
struct SqlBatch {
  SqlTableTree* tree = nullptr;
  int columns = 0;
  std::vector<SqlValue> values;
  std::string text;

  size_t rows() const { return columns ? values.size() / static_cast<size_t>(columns) : 0; }
};

// The most columns a table of the schema may have (the widest, op, has 30).
inline constexpr int kSqlBatchColumns = 32;

}  // namespace profana::report
