// libFuzzer target for the nvprof importer. Random bytes would almost never be a SQLite file
// with nvprof's tables, so the fuzzer's bytes fill the *values* of a valid schema instead: a
// small in-memory database with nvprof's tables (testdata/nvprof/small.sql) whose ids, times,
// string ids, kinds, correlation ids and column types come from the input. The importer reads
// it, then every analysis pass runs on what it imported.
#include <fuzzer/FuzzedDataProvider.h>
#include <sqlite3.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "profana/base/input_buffer.h"
#include "profana/importers/nvprof/nvprof_importer.h"
#include "run_passes.h"

namespace {

constexpr const char* kSchema[] = {
    "CREATE TABLE Version(version INT NOT NULL)",
    "CREATE TABLE StringTable(_id_ INTEGER PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_DEVICE(_id_ INTEGER PRIMARY KEY, id INT, name INT)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MARKER(_id_ INTEGER PRIMARY KEY, flags INT, timestamp INT, "
    "id INT, "
    "objectKind INT, objectId BLOB, name INT, domain INT)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(_id_ INTEGER PRIMARY KEY, cbid INT, start INT, end "
    "INT, "
    "processId INT, threadId INT, correlationId INT, returnValue INT)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_DRIVER(_id_ INTEGER PRIMARY KEY, cbid INT, start INT, end "
    "INT, "
    "processId INT, threadId INT, correlationId INT, returnValue INT)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL(_id_ INTEGER PRIMARY KEY, start INT, end "
    "INT, "
    "deviceId INT, contextId INT, streamId INT, correlationId INT, name INT)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(_id_ INTEGER PRIMARY KEY, copyKind INT, srcKind INT, "
    "dstKind INT, "
    "flags INT, bytes INT, start INT, end INT, deviceId INT, contextId INT, streamId INT, "
    "correlationId INT)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(_id_ INTEGER PRIMARY KEY, value INT, bytes INT, start "
    "INT, end INT, "
    "deviceId INT, contextId INT, streamId INT, correlationId INT)",
};

struct Table {
  const char* name;
  int columns;  // after _id_
};
constexpr Table kTables[] = {
    {"StringTable", 1},
    {"CUPTI_ACTIVITY_KIND_DEVICE", 2},
    {"CUPTI_ACTIVITY_KIND_MARKER", 7},
    {"CUPTI_ACTIVITY_KIND_RUNTIME", 7},
    {"CUPTI_ACTIVITY_KIND_DRIVER", 7},
    {"CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL", 7},
    {"CUPTI_ACTIVITY_KIND_MEMCPY", 11},
    {"CUPTI_ACTIVITY_KIND_MEMSET", 8},
    {"Version", 1},
};

// Mostly small integers, so rows correlate and nest; sometimes extremes and other column types.
void BindValue(FuzzedDataProvider& in, sqlite3_stmt* stmt, int col) {
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
      std::string text = in.ConsumeRandomLengthString(16);
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) std::abort();
  // Which tables exist is fuzzed too: the importer must say what is missing, not crash.
  uint32_t dropped = in.ConsumeIntegral<uint16_t>() & in.ConsumeIntegral<uint16_t>();
  for (size_t t = 0; t < std::size(kSchema); ++t)
    if (!(dropped >> t & 1)) sqlite3_exec(db, kSchema[t], nullptr, nullptr, nullptr);
  sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
  while (in.remaining_bytes() > 0) {
    const Table& table = kTables[in.ConsumeIntegralInRange<size_t>(0, std::size(kTables) - 1)];
    std::string sql = std::string("INSERT INTO ") + table.name + " VALUES (?";
    for (int c = 0; c < table.columns; ++c) sql += ", ?";
    sql += ")";
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
      continue;  // table dropped
    // _id_: mostly the next row id (NULL), so rows stay in insertion order; sometimes any value.
    if (in.ConsumeIntegralInRange<int>(0, 7) == 0) BindValue(in, stmt, 1);
    for (int c = 2; c <= table.columns + 1; ++c) BindValue(in, stmt, c);
    sqlite3_step(stmt);
    sqlite3_finalize(stmt);
  }
  sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_int64 db_size = 0;
  unsigned char* bytes = sqlite3_serialize(db, "main", &db_size, 0);
  sqlite3_close(db);
  if (!bytes) return 0;
  auto input = profana::InputFromBytes(
      std::string_view(reinterpret_cast<const char*>(bytes), static_cast<size_t>(db_size)),
      "fuzz.sqlite");
  sqlite3_free(bytes);
  if (!input.ok()) std::abort();  // a SQLite file is never gzip: it must load as bytes
  auto trace = profana::nvprof::ImportNvprof(*input);
  if (trace.ok()) profana::fuzz::RunPasses(*trace);
  return 0;
}
