#include "profana/importers/sqlite/database.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>

#include "fmt/format.h"
#include "profana/base/memory_limit.h"

namespace profana::sqlite {
namespace {

constexpr char kMagic[] = "SQLite format 3";  // and its NUL: 16 bytes
// Bytes 18 and 19 of the header: file format write and read versions, 1 legacy, 2 WAL.
constexpr size_t kFormatVersionAt = 18;

// VM steps SQLite may take per byte of the file, plus a floor for tiny files. Reading every row of
// every table costs a few steps per byte; the rest is room for slow schemas.
constexpr uint64_t kStepsPerByte = 64;
constexpr uint64_t kMinSteps = 50'000'000;
constexpr int kStepsPerCall = 1000;  // how often the progress handler runs

// Bounds for what the schema and the importers' own statements may ask of SQLite. The importers'
// statements are short and simple; anything past these comes from a crafted schema.
void SetLimits(sqlite3* db, size_t file_size) {
  int64_t length = std::clamp<int64_t>(static_cast<int64_t>(file_size), 1 << 20, 1 << 30);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, static_cast<int>(length));
  sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 1 << 20);
  sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 100);
  sqlite3_limit(db, SQLITE_LIMIT_COMPOUND_SELECT, 8);
  sqlite3_limit(db, SQLITE_LIMIT_VDBE_OP, 100000);
  sqlite3_limit(db, SQLITE_LIMIT_FUNCTION_ARG, 8);
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 100);
  sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, 16);
  sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 1);
  sqlite3_limit(db, SQLITE_LIMIT_WORKER_THREADS, 0);
  // A schema's own code (views, triggers, defaults, generated columns) is not trusted to call
  // functions with side effects, and views and triggers are never run at all.
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
}

// Opens `size` bytes at `data` in memory, read-only, without copying them.
int OpenInMemory(unsigned char* data, size_t size, sqlite3** out) {
  sqlite3* db = nullptr;
  // NOMUTEX: one thread uses a connection at a time, so SQLite need not lock it around every
  // call (the locks were a tenth of an import's CPU time).
  int rc = sqlite3_open_v2(
      ":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc == SQLITE_OK) {
    SetLimits(db, size);
    rc = sqlite3_deserialize(db, "main", data, static_cast<sqlite3_int64>(size),
                             static_cast<sqlite3_int64>(size), SQLITE_DESERIALIZE_READONLY);
  }
  if (rc == SQLITE_OK) sqlite3_exec(db, "PRAGMA cell_size_check = ON", nullptr, nullptr, nullptr);
  *out = db;
  return rc;
}

bool IsWal(std::string_view bytes) {
  return bytes.size() > kFormatVersionAt + 1 &&
         (bytes[kFormatVersionAt] == 2 || bytes[kFormatVersionAt + 1] == 2);
}

// The names of the tables, in sqlite_master order, and of the views: into *views, or among the
// tables without it.
std::vector<std::string> ReadTableNames(sqlite3* db, int* rc,
                                        std::vector<std::string>* views = nullptr) {
  std::vector<std::string> names;
  sqlite3_stmt* stmt = nullptr;
  *rc =
      sqlite3_prepare_v2(db, "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')",
                         -1, &stmt, nullptr);
  while (*rc == SQLITE_OK || *rc == SQLITE_ROW) {
    *rc = sqlite3_step(stmt);
    if (*rc != SQLITE_ROW) break;
    const unsigned char* name = sqlite3_column_text(stmt, 0);
    const unsigned char* type = sqlite3_column_text(stmt, 1);
    if (!name) continue;
    bool view = type && std::strcmp(reinterpret_cast<const char*>(type), "view") == 0;
    (view && views ? views : &names)->emplace_back(reinterpret_cast<const char*>(name));
  }
  sqlite3_finalize(stmt);
  if (*rc == SQLITE_DONE) *rc = SQLITE_OK;
  return names;
}

}  // namespace

std::string Excerpt(std::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  size_t cut = max;
  // Back up over UTF-8 continuation bytes so the excerpt stays valid text.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return fmt::format("{}... ({} bytes)", text.substr(0, cut), text.size());
}

bool HasSqliteMagic(std::string_view bytes) {
  return bytes.size() >= 16 && std::memcmp(bytes.data(), kMagic, 16) == 0;
}

bool IsProfanaDatabaseHeader(std::string_view bytes) {
  if (bytes.size() < 72 || !HasSqliteMagic(bytes)) return false;
  uint32_t id = 0;
  for (size_t k = 68; k < 72; ++k) id = id << 8 | static_cast<unsigned char>(bytes[k]);
  return id == kProfanaDatabaseId;
}

int Database::OnProgress(void* self) {
  auto* d = static_cast<Database*>(self);
  d->steps_ += kStepsPerCall;
  if (d->steps_ <= d->step_budget_) return 0;
  d->interrupted_ = true;
  return 1;
}

Result<std::unique_ptr<Database>> Database::Open(const InputBuffer& input) {
  std::unique_ptr<Database> d(new Database());
  d->file_ = input.name;
  d->max_bytes_ = input.max_bytes;
  d->file_size_ = input.size;
  d->step_budget_ = kMinSteps + kStepsPerByte * static_cast<uint64_t>(input.size);
  if (IsWal(input.view())) {
    // An in-memory database cannot have a write-ahead log; read the main file as a legacy one.
    d->wal_mode_ = true;
    d->header_ = input.data.get() + kFormatVersionAt;
    std::memcpy(d->saved_header_, d->header_, 2);
    d->header_[0] = d->header_[1] = 1;
    struct stat st;
    std::string wal = input.name + "-wal";
    if (::stat(wal.c_str(), &st) == 0 && st.st_size > 0) d->wal_file_ = wal;
  }
  int rc = OpenInMemory(reinterpret_cast<unsigned char*>(input.data.get()), input.size, &d->db_);
  if (rc != SQLITE_OK)
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: byte 0: not a readable SQLite database: {}", input.name,
                              d->db_ ? sqlite3_errmsg(d->db_) : sqlite3_errstr(rc)));
  sqlite3_progress_handler(d->db_, kStepsPerCall, &Database::OnProgress, d.get());
  d->tables_ = ReadTableNames(d->db_, &rc, &d->views_);
  if (rc != SQLITE_OK)
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: table sqlite_master: cannot read: {} (the file is damaged; "
                              "`sqlite3 FILE 'PRAGMA integrity_check'` lists what is lost)",
                              input.name, sqlite3_errmsg(d->db_)));
  return d;
}

Database::~Database() {
  sqlite3_close(db_);
  if (header_) std::memcpy(header_, saved_header_, 2);
}

bool Database::HasTable(std::string_view name) const {
  return std::find(tables_.begin(), tables_.end(), name) != tables_.end() ||
         std::find(views_.begin(), views_.end(), name) != views_.end();
}

Result<std::vector<std::string>> Database::Columns(const std::string& table) {
  if (std::find(views_.begin(), views_.end(), table) != views_.end())
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: table {} is a view (SQL stored in the file, which profana does "
                              "not run); profilers write tables: export the profile again, or "
                              "make it a table (sqlite3 FILE 'CREATE TABLE t AS SELECT * FROM "
                              "view')",
                              file_, Excerpt(table)));
  std::vector<std::string> columns;
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, "SELECT name, hidden FROM pragma_table_xinfo(?1)", -1, &stmt,
                              nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_bind_text(stmt, 1, table.c_str(), -1, SQLITE_TRANSIENT);
  std::string generated;
  while (rc == SQLITE_OK || rc == SQLITE_ROW) {
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_ROW) break;
    const unsigned char* name = sqlite3_column_text(stmt, 0);
    std::string column = name ? reinterpret_cast<const char*>(name) : "";
    // hidden: 2 = generated VIRTUAL, 3 = generated STORED.
    int hidden = sqlite3_column_int(stmt, 1);
    if ((hidden == 2 || hidden == 3) && generated.empty()) generated = column;
    columns.push_back(std::move(column));
  }
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE)
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: table {}: cannot read its columns: {}", file_, Excerpt(table),
                              interrupted_ ? "interrupted" : sqlite3_errmsg(db_)));
  if (!generated.empty())
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: table {}, column {}: a generated column (GENERATED ALWAYS AS "
                              "...); profilers never write one, and profana does not evaluate "
                              "them: refused",
                              file_, Excerpt(table), Excerpt(generated)));
  return columns;
}

int64_t Database::EstimateRows(const std::string& table) {
  if (!HasTable(table)) return 0;
  std::string sql = "SELECT max(rowid) FROM \"";
  for (char c : table) sql += c == '"' ? std::string("\"\"") : std::string(1, c);
  sql += '"';
  sqlite3_stmt* stmt = nullptr;
  int64_t rows = 0;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
      sqlite3_step(stmt) == SQLITE_ROW)
    rows = sqlite3_column_int64(stmt, 0);
  sqlite3_finalize(stmt);
  constexpr int64_t kLeastRowBytes = 64;
  return std::clamp<int64_t>(rows, 0, static_cast<int64_t>(file_size_) / kLeastRowBytes);
}

void Database::NoteInvalidText(std::string where, size_t sequences) {
  ++invalid_texts_;
  if (invalid_text_samples_.size() < Diagnostics::kMaxSamplesPerKind)
    invalid_text_samples_.push_back(
        fmt::format("{}: text that is not UTF-8 ({} invalid byte sequence{} kept as U+FFFD)", where,
                    sequences, sequences == 1 ? "" : "s"));
}

void Database::NoteProblems(Diagnostics* diagnostics) const {
  for (const std::string& sample : invalid_text_samples_)
    diagnostics->Add(DiagnosticKind::kInvalidString, UINT64_MAX, -1, sample);
  diagnostics->AddUnsampled(DiagnosticKind::kInvalidString,
                            invalid_texts_ - invalid_text_samples_.size());
  if (wal_file_.empty()) return;
  diagnostics->Add(DiagnosticKind::kWalNotRead, UINT64_MAX, -1,
                   fmt::format("the database is in WAL mode and {} holds changes not yet written "
                               "to it; run `sqlite3 {} 'PRAGMA wal_checkpoint'` to fold them in",
                               wal_file_, file_));
}

Status Database::ReadError(const std::string& table, int64_t row, const char* what) const {
  std::string where =
      fmt::format("{}: table {}{}", file_, table, row > 0 ? fmt::format(", row {}", row) : "");
  if (interrupted_)
    return Status(ErrorCode::kTooLarge,
                  fmt::format("{}: stopped after {} SQLite steps, far more than reading a file of "
                              "this size takes (a crafted database?)",
                              where, step_budget_));
  return Status(ErrorCode::kMalformed,
                fmt::format("{}: {}: {} (the file is damaged; `sqlite3 FILE 'PRAGMA "
                            "integrity_check'` lists what is lost)",
                            where, what, sqlite3_errmsg(db_)));
}

Status Database::TextBudgetError(const std::string& where) const {
  return TooLargeError(file_, where, "holds more text than", max_bytes_);
}

std::vector<std::string> TableNames(std::string_view bytes) {
  if (!HasSqliteMagic(bytes)) return {};
  // SQLite reads the bytes in place and, opened read-only, never writes them. A WAL-mode header
  // must change to be read in memory: that case works on a copy.
  std::string copy;
  unsigned char* data = reinterpret_cast<unsigned char*>(const_cast<char*>(bytes.data()));
  if (IsWal(bytes)) {
    copy.assign(bytes);
    copy[kFormatVersionAt] = copy[kFormatVersionAt + 1] = 1;
    data = reinterpret_cast<unsigned char*>(copy.data());
  }
  sqlite3* db = nullptr;
  int rc = OpenInMemory(data, bytes.size(), &db);
  std::vector<std::string> names;
  if (rc == SQLITE_OK) {
    // Reading the schema is bounded too: a crafted one must not hang format detection.
    uint64_t steps = 0;
    struct Budget {
      uint64_t* steps;
      static int Check(void* p) {
        auto* b = static_cast<Budget*>(p);
        *b->steps += kStepsPerCall;
        return *b->steps > kMinSteps ? 1 : 0;
      }
    } budget{&steps};
    sqlite3_progress_handler(db, kStepsPerCall, &Budget::Check, &budget);
    names = ReadTableNames(db, &rc);
    if (rc != SQLITE_OK) names.clear();
  }
  sqlite3_close(db);
  return names;
}

}  // namespace profana::sqlite
