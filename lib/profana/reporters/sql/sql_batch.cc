#include "profana/reporters/sql/sql_batch.h"

#include <sqlite3.h>

#include <cstddef>
#include <new>

#include "fmt/format.h"

namespace profana::report {
namespace {

constexpr const char* kModule = "profana_batch";

struct BatchTable {
  sqlite3_vtab base{};  // first: SQLite sees a sqlite3_vtab*
  SqlBatchSource* source = nullptr;
};

struct BatchCursor {
  sqlite3_vtab_cursor base{};
  const SqlBatch* batch = nullptr;
  size_t row = 0;
  size_t rows = 0;
};

int BatchConnect(sqlite3* db, void* aux, int /*argc*/, const char* const* /*argv*/,
                 sqlite3_vtab** out, char** /*error*/) {
  std::string columns;
  for (int c = 0; c < kSqlBatchColumns; ++c) columns += fmt::format("{}c{}", c ? "," : "", c);
  int rc = sqlite3_declare_vtab(db, ("CREATE TABLE x(" + columns + ")").c_str());
  if (rc != SQLITE_OK) return rc;
  auto* table = new (std::nothrow) BatchTable();
  if (!table) return SQLITE_NOMEM;
  table->source = static_cast<SqlBatchSource*>(aux);
  *out = &table->base;
  return SQLITE_OK;
}

int BatchDisconnect(sqlite3_vtab* vtab) {
  delete reinterpret_cast<BatchTable*>(vtab);
  return SQLITE_OK;
}

// One plan: a full scan, whatever the query asks.
int BatchBestIndex(sqlite3_vtab* /*vtab*/, sqlite3_index_info* info) {
  info->estimatedCost = 1e6;
  return SQLITE_OK;
}

int BatchOpen(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
  auto* cursor = new (std::nothrow) BatchCursor();
  if (!cursor) return SQLITE_NOMEM;
  cursor->batch = reinterpret_cast<BatchTable*>(vtab)->source->batch;
  *out = &cursor->base;
  return SQLITE_OK;
}

int BatchClose(sqlite3_vtab_cursor* cursor) {
  delete reinterpret_cast<BatchCursor*>(cursor);
  return SQLITE_OK;
}

int BatchFilter(sqlite3_vtab_cursor* base, int /*plan*/, const char* /*plan_text*/, int /*argc*/,
                sqlite3_value** /*argv*/) {
  auto* cursor = reinterpret_cast<BatchCursor*>(base);
  cursor->row = 0;
  cursor->rows = cursor->batch ? cursor->batch->rows() : 0;
  return SQLITE_OK;
}

int BatchNext(sqlite3_vtab_cursor* base) {
  ++reinterpret_cast<BatchCursor*>(base)->row;
  return SQLITE_OK;
}

int BatchEof(sqlite3_vtab_cursor* base) {
  auto* cursor = reinterpret_cast<BatchCursor*>(base);
  return cursor->row >= cursor->rows;
}

int BatchColumn(sqlite3_vtab_cursor* base, sqlite3_context* context, int column) {
  auto* cursor = reinterpret_cast<BatchCursor*>(base);
  const SqlBatch& b = *cursor->batch;
  if (column >= b.columns) {
    sqlite3_result_null(context);
    return SQLITE_OK;
  }
  const SqlValue& v =
      b.values[cursor->row * static_cast<size_t>(b.columns) + static_cast<size_t>(column)];
  switch (v.type) {
    case SqlValue::Type::kInt:
      sqlite3_result_int64(context, v.i);
      break;
    case SqlValue::Type::kReal:
      sqlite3_result_double(context, v.d);
      break;
    case SqlValue::Type::kText:
      sqlite3_result_text64(context, b.text.data() + v.i, v.size, SQLITE_STATIC, SQLITE_UTF8);
      break;
    case SqlValue::Type::kNull:
      sqlite3_result_null(context);
      break;
  }
  return SQLITE_OK;
}

int BatchRowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  *rowid = static_cast<sqlite3_int64>(reinterpret_cast<BatchCursor*>(base)->row);
  return SQLITE_OK;
}

sqlite3_module MakeModule() {
  sqlite3_module m{};
  m.iVersion = 1;
  m.xCreate = nullptr;  // eponymous only: the table exists without CREATE VIRTUAL TABLE
  m.xConnect = BatchConnect;
  m.xBestIndex = BatchBestIndex;
  m.xDisconnect = BatchDisconnect;
  m.xDestroy = BatchDisconnect;
  m.xOpen = BatchOpen;
  m.xClose = BatchClose;
  m.xFilter = BatchFilter;
  m.xNext = BatchNext;
  m.xEof = BatchEof;
  m.xColumn = BatchColumn;
  m.xRowid = BatchRowid;
  return m;
}

const sqlite3_module kBatchModule = MakeModule();

}  // namespace

Status RegisterSqlBatchTable(sqlite3* db, SqlBatchSource* source) {
  if (sqlite3_create_module(db, kModule, &kBatchModule, source) == SQLITE_OK) return Status::Ok();
  return Status(ErrorCode::kIo,
                fmt::format("database: cannot register {}: {}", kModule, sqlite3_errmsg(db)));
}

std::string SqlBatchInsert(const std::string& table, int columns) {
  std::string sql = "INSERT INTO " + table + " SELECT ";
  for (int c = 0; c < columns; ++c) sql += fmt::format("{}c{}", c ? "," : "", c);
  return sql + " FROM " + kModule;
}

}  // namespace profana::report
