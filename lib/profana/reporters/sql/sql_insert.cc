#include "profana/reporters/sql/sql_insert.h"

#include <sqlite3.h>

#include "fmt/format.h"
#include "profana/reporters/sql/sql_batch.h"

namespace profana::report {

namespace {

// Values per batch: about 1.5 MB of them, enough that handing a batch over costs nothing beside
// stepping it.
constexpr size_t kBatchValues = size_t{1} << 16;
// SQLite's longest value (SQLITE_MAX_LENGTH); SqlValue keeps a text's size in 32 bits.
constexpr size_t kMaxTextBytes = 1000000000;

}  // namespace

SqlInsert::SqlInsert(SqlRowPipe* pipe, const std::string& table) : pipe_(pipe), table_(table) {
  // The pipe's thread owns the connection while rows are in flight.
  status_ = pipe->Drain();
  if (!status_.ok()) return;
  sqlite3* db = pipe->db();
  sqlite3_stmt* stmt = nullptr;
  std::string select = "SELECT * FROM " + table;
  if (sqlite3_prepare_v2(db, select.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    Fail("no such table");
    return;
  }
  columns_ = sqlite3_column_count(stmt);
  sqlite3_finalize(stmt);
  if (columns_ > kSqlBatchColumns) {
    status_ = Status(ErrorCode::kInternal,
                     fmt::format("database table {}: {} columns, more than a batch holds ({})",
                                 table_, columns_, kSqlBatchColumns));
    return;
  }
  std::string sql = SqlBatchInsert(table, columns_);
  if (sqlite3_prepare_v3(db, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) !=
      SQLITE_OK) {
    Fail("cannot prepare the insert");
    return;
  }
  stmt_.reset(stmt);
  batch_.stmt = stmt;
  batch_.table = &table_;
  batch_.columns = columns_;
  batch_.values.reserve(kBatchValues + static_cast<size_t>(columns_));
}

SqlInsert::~SqlInsert() { static_cast<void>(Finish()); }  // a writer that returned early

void SqlInsert::Fail(const char* what) {
  if (!status_.ok()) return;
  status_ = Status(ErrorCode::kIo, fmt::format("database table {}: {}: {}", table_, what,
                                               sqlite3_errmsg(pipe_->db())));
}

SqlValue& SqlInsert::Next(SqlValue::Type type) {
  ++column_;
  SqlValue& v = batch_.values.emplace_back();
  v.type = type;
  return v;
}

SqlInsert& SqlInsert::Int(int64_t v) {
  if (status_.ok()) Next(SqlValue::Type::kInt).i = v;
  return *this;
}

SqlInsert& SqlInsert::Real(double v) {
  if (status_.ok()) Next(SqlValue::Type::kReal).d = v;
  return *this;
}

SqlInsert& SqlInsert::Text(std::string_view v) {
  if (!status_.ok()) return *this;
  if (v.size() > kMaxTextBytes) {
    // Not Fail(): the connection's last error may be the pipe thread's, and is not this one.
    status_ = Status(ErrorCode::kInvalidArgument,
                     fmt::format("database table {}: a text of {} bytes, more than SQLite's "
                                 "10^9",
                                 table_, v.size()));
    return *this;
  }
  SqlValue& value = Next(SqlValue::Type::kText);
  value.i = static_cast<int64_t>(batch_.text.size());
  value.size = static_cast<uint32_t>(v.size());
  batch_.text.append(v);
  return *this;
}

SqlInsert& SqlInsert::Null() {
  if (status_.ok()) Next(SqlValue::Type::kNull);
  return *this;
}

void SqlInsert::Row() {
  int given = column_;
  column_ = 0;
  if (!status_.ok()) return;
  if (given != columns_) {
    status_ =
        Status(ErrorCode::kInternal,
               fmt::format("database table {}: {} values for {} columns", table_, given, columns_));
    return;
  }
  if (batch_.values.size() >= kBatchValues) pipe_->Hand(&batch_);
}

Status SqlInsert::Finish() {
  if (status_.ok() && !batch_.values.empty()) {
    // A row begun and not ended is not stepped.
    batch_.values.resize(batch_.rows() * static_cast<size_t>(columns_));
    pipe_->Hand(&batch_);
  }
  column_ = 0;
  Status drained = pipe_->Drain();
  if (status_.ok()) status_ = drained;
  return status_;
}

Status ExecSql(sqlite3* db, const std::string& sql, std::string_view what) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return Status::Ok();
  std::string text = message ? message : sqlite3_errmsg(db);
  sqlite3_free(message);
  return Status(ErrorCode::kIo, fmt::format("database: {}: {}", what, text));
}

}  // namespace profana::report
