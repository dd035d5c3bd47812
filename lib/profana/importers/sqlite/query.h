// Query reads one table row by row through a prepared statement, columns by name: the importers
// ask for the columns they use, and a table that lacks a required one (or renames it in another
// profiler version) is an error naming the table and the column. Rows come in the table's stored
// order, never sorted, so a table of any size streams through a fixed amount of memory. Errors
// and per-row problems are located as "table T, row N" (N counts rows read, from 1) and name the
// column.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/status.h"
#include "profana/importers/sqlite/database.h"
#include "profana/model/diagnostics.h"

struct sqlite3_stmt;

namespace profana::sqlite {

struct StmtCloser {
  void operator()(sqlite3_stmt* s) const;
};
using Stmt = std::unique_ptr<sqlite3_stmt, StmtCloser>;

class Query {
 public:
  // SELECT the named columns of `table`. A name ending in '?' is optional: where the table lacks
  // it, the column reads NULL (and Has() is false). `what` names the format in the message for a
  // missing required column ("not the table nvprof writes").
  Query(Database& db, const std::string& table, std::initializer_list<std::string_view> columns,
        std::string_view what);
  // Any statement; `label` stands for the table in messages.
  Query(Database& db, std::string label, const std::string& sql);

  // For statements written by hand (joins): checks that `table` has `columns` (a '?' suffix
  // marks an optional one) with Query's message for a missing one; `present` says which exist.
  static Status CheckColumns(Database& db, const std::string& table,
                             std::initializer_list<std::string_view> columns, std::string_view what,
                             std::vector<uint8_t>* present = nullptr);

  // True while there is a row; check status() after the loop.
  bool Next();

  // Column k was asked for and the table has it (a raw statement has every column it selects).
  bool Has(int k) const {
    return k >= 0 && static_cast<size_t>(k) < names_.size() && (present_.empty() || present_[k]);
  }
  int64_t Int(int k) const;
  double Double(int k) const;
  bool IsNull(int k) const;
  bool IsInteger(int k) const;
  // Text is counted against the memory budget (a file holds at most its size in text; computed
  // values could hold anything): past it, Next() stops with a kTooLarge status.
  std::string_view Text(int k);
  std::string_view Blob(int k) const;
  // "TEXT", "a REAL", "a BLOB", "NULL", "an INTEGER": what column k holds in this row.
  const char* TypeName(int k) const;
  const std::string& column(int k) const { return names_[k]; }

  const std::string& table() const { return table_; }
  int64_t row() const { return row_; }
  const Status& status() const { return status_; }
  // "table T, row N" of the current row.
  std::string Where() const;

  // Per-row checks for the importers: each counts one diagnostic located at this row and column
  // and returns true when the row must be skipped.
  // Columns (Has() ones) whose value is not an integer; NULL passes when null_ok.
  bool BadIntegers(std::initializer_list<int> columns, Diagnostics* d, bool null_ok = false) const;
  // Times outside +-2^62 ns would overflow the passes' arithmetic.
  bool BadTimes(int64_t start_ns, int64_t end_ns, Diagnostics* d) const;

 private:
  void Prepare(const std::string& sql);
  Status Error(const char* what) const;

  Database& db_;
  std::string table_;
  std::vector<std::string> names_;
  std::vector<uint8_t> present_;  // empty: all present
  Stmt stmt_;
  Status status_;
  int64_t row_ = 0;
};

}  // namespace profana::sqlite
