// The SQLite layer every database importer reads through (nvprof, Nsight Systems, rocmProfileData,
// rocpd). It opens the bytes profana already holds, in memory and read-only, so the user's file is
// never written, locked or given a journal; and it fences a hostile file in: SQLite's limits are
// lowered, a progress handler stops a query that works far more than the file's size explains,
// generated columns and views are never evaluated, and the text read is counted against the
// memory budget (--max-memory). Importers read tables through Query (query.h), by column name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/input_buffer.h"
#include "profana/base/status.h"
#include "profana/model/diagnostics.h"

struct sqlite3;

namespace profana::sqlite {

// What messages show of a name read from a file: at most `max` bytes (cut on a UTF-8 character
// boundary), then "... (N bytes)" when it was longer. A crafted 100 MB name makes a short line.
std::string Excerpt(std::string_view text, size_t max = 80);

// The 16-byte magic every SQLite 3 file starts with.
bool HasSqliteMagic(std::string_view bytes);

// PRAGMA application_id of the databases profana writes (reporters/sql, docs/sql.md): "PFSQ".
constexpr uint32_t kProfanaDatabaseId = 0x50465351;
// Whether the file's first bytes (at least the 100-byte header) are one of those databases: the
// application id is the big-endian 32-bit number at offset 68.
bool IsProfanaDatabaseHeader(std::string_view bytes);

class Database {
 public:
  // Opens `input` (its bytes are read in place, never copied; keep `input` alive and unchanged
  // while the Database lives) and reads the names of its tables. Errors name the file.
  static Result<std::unique_ptr<Database>> Open(const InputBuffer& input);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  sqlite3* handle() const { return db_; }
  const std::string& file() const { return file_; }

  // Tables (not views) in sqlite_master order.
  const std::vector<std::string>& tables() const { return tables_; }
  // A table or a view of that name: a view stands where an importer looks for a table (and is
  // refused when read, naming it) rather than being taken for a table that is missing.
  bool HasTable(std::string_view name) const;

  // The columns of `table`, in order. A view is refused, naming it (views are never run: their SQL
  // comes from the file), and so is a generated column (GENERATED ALWAYS AS ...): no profiler
  // writes one, and evaluating it could cost anything.
  Result<std::vector<std::string>> Columns(const std::string& table);

  // About how many rows `table` holds, for reserving room: its largest rowid (SQLite finds it
  // without a scan), at most its share of the file (a row takes tens of bytes; a hostile rowid
  // must not size anything); 0 when unknown.
  int64_t EstimateRows(const std::string& table);

  // Counts `bytes` of text read from the file against --max-memory; false once the total passes
  // it. A file cannot hold more text than its size, so only computed values ever get there.
  bool ChargeText(size_t bytes) {
    text_bytes_ += bytes;
    return max_bytes_ == 0 || text_bytes_ <= max_bytes_;
  }
  Status TextBudgetError(const std::string& where) const;

  // What went wrong reading `table` at `row` (counted from 1; 0 for none): the step budget
  // spent, or SQLite's message about the damage (`what`: "database error", "cannot read").
  Status ReadError(const std::string& table, int64_t row, const char* what) const;

  // Set by the progress handler when it stopped a query; Query turns it into its message.
  bool interrupted() const { return interrupted_; }
  uint64_t step_budget() const { return step_budget_; }

  // The header said write-ahead-log mode: read as the main file alone. wal_file() is the
  // FILE-wal beside the input when one exists and is not empty (changes profana cannot see).
  bool wal_mode() const { return wal_mode_; }
  const std::string& wal_file() const { return wal_file_; }

  // Query::Text found a value at `where` that is not UTF-8 and replaced `sequences` invalid
  // sequences in it by U+FFFD.
  void NoteInvalidText(std::string where, size_t sequences);
  // Counts the warnings of what reading found beside the rows: a write-ahead log whose changes the
  // import misses (kWalNotRead), text that was not UTF-8 (kInvalidString, one per value, the first
  // few located).
  void NoteProblems(Diagnostics* diagnostics) const;

 private:
  Database() = default;
  static int OnProgress(void* self);

  sqlite3* db_ = nullptr;
  std::string file_;
  std::vector<std::string> tables_;
  std::vector<std::string> views_;
  uint64_t max_bytes_ = 0;
  size_t file_size_ = 0;
  uint64_t text_bytes_ = 0;
  uint64_t step_budget_ = 0;  // SQLite VM steps this database may take, all queries together
  uint64_t steps_ = 0;
  bool interrupted_ = false;
  bool wal_mode_ = false;
  std::string wal_file_;
  uint64_t invalid_texts_ = 0;
  std::vector<std::string> invalid_text_samples_;
  // WAL mode is switched off in profana's copy of the header while SQLite reads it (an in-memory
  // database cannot have a log) and switched back when the Database closes.
  char* header_ = nullptr;
  char saved_header_[2] = {0, 0};
};

// The names of the tables and views of a SQLite file, or an empty list when it is not one that
// opens: what the format sniffers look at.
std::vector<std::string> TableNames(std::string_view bytes);

}  // namespace profana::sqlite
