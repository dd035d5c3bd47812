// What the database fuzz targets share: random bytes are almost never a SQLite file with a
// profiler's tables, so the fuzzer's bytes fill the *values* of a valid schema instead. Which
// tables exist, then rows of mostly small integers (so ids correlate and times nest), and now
// and then an extreme integer, a REAL, TEXT, a BLOB or NULL; the database is serialised and the
// importer reads the bytes exactly as it reads a file. Header-only: each target is one
// translation unit plus the library.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>
#include <sqlite3.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace profana::fuzz {

struct FuzzTable {
  const char* name;
  int columns;
  // The first column is the rowid: mostly left NULL (the next id), so rows keep their order.
  bool id_first = true;
};

inline void BindValue(FuzzedDataProvider& in, sqlite3_stmt* stmt, int col) {
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 0:
      sqlite3_bind_int64(stmt, col, in.ConsumeIntegral<int64_t>());
      break;
    case 1:
      sqlite3_bind_null(stmt, col);
      break;
    case 2:
      sqlite3_bind_double(stmt, col, in.ConsumeFloatingPoint<double>());
      break;
    case 3: {
      std::string text = in.ConsumeRandomLengthString(24);
      sqlite3_bind_text(stmt, col, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
      break;
    }
    case 4: {
      std::string blob = in.ConsumeRandomLengthString(12);
      sqlite3_bind_blob(stmt, col, blob.data(), static_cast<int>(blob.size()), SQLITE_TRANSIENT);
      break;
    }
    case 5:
      sqlite3_bind_int64(stmt, col, INT64_MAX - in.ConsumeIntegralInRange<int64_t>(0, 1000));
      break;
    case 6:
      sqlite3_bind_int64(stmt, col, INT64_MIN + in.ConsumeIntegralInRange<int64_t>(0, 1000));
      break;
    case 7:
    case 8:
    case 9:
      sqlite3_bind_int64(stmt, col, in.ConsumeIntegralInRange<int64_t>(-2, 40));
      break;
    default:
      sqlite3_bind_int64(stmt, col, in.ConsumeIntegralInRange<int64_t>(-2, 40) * 1000);
      break;
  }
}

// Builds the schema (each statement kept or, by the fuzzer's choice, dropped), runs `fixed` (rows
// every input has: the names a format matches on), fills `tables` and returns the database's
// bytes ("" when SQLite could not serialise it).
inline std::string FuzzDatabase(FuzzedDataProvider& in, const std::vector<const char*>& schema,
                                const std::vector<FuzzTable>& tables,
                                const std::vector<const char*>& fixed = {}) {
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) std::abort();
  uint64_t dropped = in.ConsumeIntegral<uint32_t>() & in.ConsumeIntegral<uint32_t>();
  for (size_t t = 0; t < schema.size(); ++t)
    if (t >= 32 || !(dropped >> t & 1)) sqlite3_exec(db, schema[t], nullptr, nullptr, nullptr);
  sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
  for (const char* statement : fixed) sqlite3_exec(db, statement, nullptr, nullptr, nullptr);
  while (in.remaining_bytes() > 0) {
    const FuzzTable& table = tables[in.ConsumeIntegralInRange<size_t>(0, tables.size() - 1)];
    std::string sql = std::string("INSERT INTO \"") + table.name + "\" VALUES (?";
    for (int c = 1; c < table.columns; ++c) sql += ", ?";
    sql += ")";
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) continue;  // dropped
    // The first column (an id, often the rowid): mostly the next one, sometimes any value.
    if (!table.id_first || in.ConsumeIntegralInRange<int>(0, 7) == 0) BindValue(in, stmt, 1);
    for (int c = 2; c <= table.columns; ++c) BindValue(in, stmt, c);
    sqlite3_step(stmt);
    sqlite3_finalize(stmt);
  }
  sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_int64 size = 0;
  unsigned char* bytes = sqlite3_serialize(db, "main", &size, 0);
  sqlite3_close(db);
  if (!bytes) return "";
  std::string out(reinterpret_cast<const char*>(bytes), static_cast<size_t>(size));
  sqlite3_free(bytes);
  return out;
}

}  // namespace profana::fuzz
