#include "profana/reporters/sql/sql_insert.h"

#include <sqlite3.h>

#include "fmt/format.h"

namespace profana::report {

namespace {

// Values per batch: about 1.5 MB of them, enough that handing a batch over costs nothing beside
// adding it.
constexpr size_t kBatchValues = size_t{1} << 16;
// SQLite's longest value (SQLITE_MAX_LENGTH); SqlValue keeps a text's size in 32 bits.
constexpr size_t kMaxTextBytes = 1000000000;

}  // namespace

SqlInsert::SqlInsert(SqlRowPipe* pipe, const std::string& table) : pipe_(pipe), table_(table) {
  SqlTableTree* tree = pipe->file()->Table(table);
  if (!tree) {
    status_ = Status(ErrorCode::kInternal, fmt::format("database table {}: no such table", table));
    return;
  }
  columns_ = tree->columns();
  batch_.tree = tree;
  batch_.columns = columns_;
  batch_.values.reserve(kBatchValues + static_cast<size_t>(columns_));
}

SqlInsert::~SqlInsert() { static_cast<void>(Finish()); }  // a writer that returned early

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
    // A row begun and not ended is not added.
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
