#include "profana/importers/sqlite/query.h"

#include <sqlite3.h>

#include <algorithm>
#include <system_error>

#include "fmt/format.h"
#include "profana/base/utf8.h"
#include "profana/base/worker_pool.h"
#include "profana/model/trace.h"

namespace profana::sqlite {
namespace {

// A name as an SQL identifier: "name", with embedded quotes doubled.
std::string Quote(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

}  // namespace

void StmtCloser::operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }

Status Query::CheckColumns(Database& db, const std::string& table,
                           std::initializer_list<std::string_view> columns, std::string_view what,
                           std::vector<uint8_t>* present) {
  Result<std::vector<std::string>> have = db.Columns(table);
  if (!have.ok()) return have.status();
  for (std::string_view c : columns) {
    bool optional = !c.empty() && c.back() == '?';
    if (optional) c.remove_suffix(1);
    bool found = std::find(have->begin(), have->end(), c) != have->end();
    if (!found && !optional)
      return Status(ErrorCode::kMalformed, fmt::format("{}: table {}: no column {}: not the table "
                                                       "{} writes",
                                                       db.file(), table, c, what));
    if (present) present->push_back(found ? 1 : 0);
  }
  return Status::Ok();
}

Query::Query(Database& db, const std::string& table,
             std::initializer_list<std::string_view> columns, std::string_view what)
    : db_(db), table_(table) {
  status_ = CheckColumns(db, table, columns, what, &present_);
  if (!status_.ok()) return;
  std::string sql = "SELECT ";
  size_t k = 0;
  for (std::string_view c : columns) {
    if (!c.empty() && c.back() == '?') c.remove_suffix(1);
    names_.emplace_back(c);
    if (k) sql += ", ";
    sql += present_[k++] ? Quote(c) : std::string("NULL");
  }
  Prepare(sql + " FROM " + Quote(table));
}

Query::Query(Database& db, std::string label, const std::string& sql)
    : db_(db), table_(std::move(label)) {
  Prepare(sql);
  if (stmt_)
    for (int c = 0; c < sqlite3_column_count(stmt_.get()); ++c)
      names_.emplace_back(sqlite3_column_name(stmt_.get(), c));
}

void Query::Prepare(const std::string& sql) {
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db_.handle(), sql.c_str(), -1, &raw, nullptr);
  stmt_.reset(raw);
  if (rc == SQLITE_OK) return;
  stmt_.reset();
  if (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB || db_.interrupted())
    status_ = Error("cannot read");
  else
    status_ =
        Status(ErrorCode::kMalformed, fmt::format("{}: table {}: cannot read it ({})", db_.file(),
                                                  table_, sqlite3_errmsg(db_.handle())));
}

void Query::ReadAhead(size_t min_cores) {
  if (!status_.ok() || !stmt_ || ahead_ || AvailableCores() < min_cores) return;
  try {
    ahead_ = std::make_unique<sqlite::ReadAhead>(db_, stmt_.get(), table_, names_);
  } catch (const std::system_error&) {
    // No thread to be had (a caller's tight limits): read on this one.
  }
}

bool Query::Next() {
  if (!status_.ok() || !stmt_) return false;
  if (ahead_) {
    cells_ = ahead_->Next();
    if (cells_) {
      ++row_;
      return true;
    }
    status_ = ahead_->status();
    ahead_.reset();  // the connection is free again
    return false;
  }
  int rc = sqlite3_step(stmt_.get());
  if (rc == SQLITE_ROW) {
    ++row_;
    return true;
  }
  if (rc != SQLITE_DONE) status_ = Error("database error");  // a damaged page, usually
  return false;
}

std::string_view Query::IntegerText(int64_t value) const {
  char* end = fmt::format_to(integer_text_, "{}", value);
  return {integer_text_, static_cast<size_t>(end - integer_text_)};
}

int Query::ColumnType(int k) const {
  static_assert(kInteger == SQLITE_INTEGER && kNull == SQLITE_NULL);
  return sqlite3_column_type(stmt_.get(), k);
}
int64_t Query::ColumnInt(int k) const { return sqlite3_column_int64(stmt_.get(), k); }
double Query::Double(int k) const {
  return cells_ ? cells_[k].d : sqlite3_column_double(stmt_.get(), k);
}

std::string_view Query::Text(int k) {
  std::string_view raw = RawText(k);
  return IsValidUtf8(raw) ? raw : Repaired(k, raw);
}

std::string_view Query::Repaired(int k, std::string_view raw) {
  if (repaired_.size() < names_.size()) repaired_.resize(names_.size());
  std::string& text = repaired_[k];
  text.clear();
  size_t replaced = AppendValidUtf8(raw, &text);
  db_.NoteInvalidText(fmt::format("{}, column {}", Where(), names_[k]), replaced);
  return text;
}

std::string_view Query::RawText(int k) {
  if (cells_) {
    // The worker copied (and counted) the text of TEXT, BLOB and REAL values; an integer's is
    // its decimal digits, as SQLite writes them.
    if (cells_[k].type == SQLITE_INTEGER) return IntegerText(cells_[k].i);
    return ahead_->Text(cells_[k]);
  }
  const unsigned char* p = sqlite3_column_text(stmt_.get(), k);
  if (!p) return "";
  size_t n = static_cast<size_t>(sqlite3_column_bytes(stmt_.get(), k));
  if (!db_.ChargeText(n) && status_.ok()) {
    status_ = db_.TextBudgetError(fmt::format("{}, column {}", Where(), names_[k]));
    // Nothing more is read: the statement stops here.
    stmt_.reset();
    return "";
  }
  return {reinterpret_cast<const char*>(p), n};
}

std::string_view Query::Blob(int k) const {
  if (cells_)
    return cells_[k].type == SQLITE_INTEGER ? IntegerText(cells_[k].i) : ahead_->Text(cells_[k]);
  const void* p = sqlite3_column_blob(stmt_.get(), k);
  return p ? std::string_view(static_cast<const char*>(p),
                              static_cast<size_t>(sqlite3_column_bytes(stmt_.get(), k)))
           : "";
}

const char* Query::TypeName(int k) const {
  switch (Type(k)) {
    case SQLITE_FLOAT:
      return "a REAL";
    case SQLITE_TEXT:
      return "TEXT";
    case SQLITE_BLOB:
      return "a BLOB";
    case SQLITE_NULL:
      return "NULL";
    default:
      return "an INTEGER";
  }
}

std::string Query::Where() const { return fmt::format("table {}, row {}", table_, row_); }

bool Query::BadIntegers(std::initializer_list<int> columns, Diagnostics* d, bool null_ok) const {
  for (int k : columns) {
    if (!Has(k) || IsInteger(k) || (null_ok && IsNull(k))) continue;
    d->Add(DiagnosticKind::kWrongFieldType, UINT64_MAX, -1,
           fmt::format("{}: column {} holds {}, expected an integer; row skipped", Where(),
                       names_[k], TypeName(k)));
    return true;
  }
  return false;
}

bool Query::BadTimes(int64_t start_ns, int64_t end_ns, Diagnostics* d) const {
  if (TimeInRange(start_ns) && TimeInRange(end_ns)) return false;
  d->Add(DiagnosticKind::kBadNumber, UINT64_MAX, -1,
         fmt::format("{}: time {} ns is out of range (times must be within +-146 years of 0); "
                     "row skipped",
                     Where(), TimeInRange(start_ns) ? end_ns : start_ns));
  return true;
}

Status Query::Error(const char* what) const {
  return db_.ReadError(table_, stmt_ ? row_ + 1 : 0, what);
}

}  // namespace profana::sqlite
