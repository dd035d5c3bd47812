// ReadAhead steps a prepared statement on a worker thread and copies its rows out of SQLite, a
// block of rows at a time, a few blocks ahead of the reader: SQLite's stepping and decoding then
// overlap the importer's work on the rows before, on a second core. Query (query.h) uses it for
// the big tables when asked to (Query::ReadAhead).
//
// While it runs, the worker owns the statement's connection: nothing else may use that database
// (no other statement, no Columns()) until Next() has returned null or the ReadAhead is gone.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/status.h"
#include "profana/importers/sqlite/database.h"

struct sqlite3_stmt;

namespace profana::sqlite {

// One column of one row, as SQLite would have answered for it: its type (SQLITE_INTEGER ...) and
// its value read as an integer and as a double, with SQLite's own conversions; for TEXT, BLOB and
// REAL values, the bytes SQLite gives as its text (a REAL's text is SQLite's rendering).
struct Cell {
  int64_t i = 0;
  double d = 0;
  size_t text_at = 0, text_size = 0;  // in the block's text
  int type = 0;
};

class ReadAhead {
 public:
  // `table` and `columns` name the rows in messages (as Query::Where does).
  ReadAhead(Database& db, sqlite3_stmt* stmt, std::string table, std::vector<std::string> columns);
  ~ReadAhead();  // stops the worker and waits for it
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // The next row's cells, one per column, or null at the end of the rows; status() then says
  // whether the statement finished or failed (a damaged page, SQLite's step budget, the text
  // budget). The cells and their text stay valid until the next call.
  const Cell* Next();
  std::string_view Text(const Cell& cell) const;
  const Status& status() const { return status_; }

 private:
  struct Block;
  struct Shared;
  void Work();
  // Copies the current row of the statement into `block`; false (with `status`) when the text
  // budget is spent.
  bool CopyRow(Block* block, int64_t row, Status* status);

  Database& db_;
  sqlite3_stmt* stmt_;
  std::string table_;
  std::vector<std::string> columns_;
  std::unique_ptr<Shared> shared_;
  std::unique_ptr<Block> current_;  // the block Next() walks
  size_t next_row_ = 0;
  Status status_;
};

}  // namespace profana::sqlite
