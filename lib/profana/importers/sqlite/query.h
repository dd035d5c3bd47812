// Query reads one table row by row through a prepared statement, columns by name: the importers
// ask for the columns they use, and a table that lacks a required one (or renames it in another
// profiler version) is an error naming the table and the column. Rows come in the table's stored
// order, never sorted, so a table of any size streams through a fixed amount of memory. Errors
// and per-row problems are located as "table T, row N" (N counts rows read, from 1) and name the
// column.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/status.h"
#include "profana/importers/sqlite/database.h"
#include "profana/importers/sqlite/read_ahead.h"
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

  // From here on, a worker thread steps the statement and copies rows a few blocks ahead of
  // Next() (read_ahead.h), so that SQLite's work overlaps the importer's; where this process may
  // use fewer than `min_cores` cores, nothing changes. For the big tables: nothing else may use
  // the database until Next() has returned false or the Query is gone. The accessors answer as
  // they would have without it.
  void ReadAhead(size_t min_cores = 2);
  bool reading_ahead() const { return ahead_ != nullptr; }

  // True while there is a row; check status() after the loop.
  bool Next();

  // Column k was asked for and the table has it (a raw statement has every column it selects).
  bool Has(int k) const {
    return k >= 0 && static_cast<size_t>(k) < names_.size() && (present_.empty() || present_[k]);
  }
  int64_t Int(int k) const { return cells_ ? cells_[k].i : ColumnInt(k); }
  double Double(int k) const;
  bool IsNull(int k) const { return Type(k) == kNull; }
  // Column k's value where the table has it and it is an integer from 0 to INT32_MAX, else -1:
  // how the importers read a launch configuration (grid, block, registers) that may be missing.
  int32_t Count32(int k) const {
    if (!Has(k) || !IsInteger(k)) return -1;
    int64_t v = Int(k);
    return v >= 0 && v <= INT32_MAX ? static_cast<int32_t>(v) : -1;
  }
  bool IsInteger(int k) const { return Type(k) == kInteger; }
  // Text is counted against the memory budget (a file holds at most its size in text; computed
  // values could hold anything): past it, Next() stops with a kTooLarge status. It is always
  // UTF-8: a value that is not (SQLite stores TEXT as given) has each invalid sequence replaced
  // by U+FFFD, noted in the Database (Database::NoteProblems counts them). Valid until the next
  // row, as SQLite's own text is.
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
  // SQLITE_INTEGER and SQLITE_NULL, without sqlite3.h here.
  static constexpr int kInteger = 1, kNull = 5;
  int Type(int k) const { return cells_ ? cells_[k].type : ColumnType(k); }
  int ColumnType(int k) const;
  int64_t ColumnInt(int k) const;
  std::string_view IntegerText(int64_t value) const;
  std::string_view RawText(int k);
  std::string_view Repaired(int k, std::string_view raw);
  void Prepare(const std::string& sql);
  Status Error(const char* what) const;

  Database& db_;
  std::string table_;
  std::vector<std::string> names_;
  std::vector<uint8_t> present_;  // empty: all present
  Stmt stmt_;
  Status status_;
  int64_t row_ = 0;
  std::unique_ptr<sqlite::ReadAhead> ahead_;
  const Cell* cells_ = nullptr;        // the current row, when reading ahead
  mutable char integer_text_[24];      // Text() of an integer cell
  std::vector<std::string> repaired_;  // by column: Text() of a value that was not UTF-8
};

}  // namespace profana::sqlite
