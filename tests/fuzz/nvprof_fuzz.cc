// libFuzzer target for the nvprof importer. Random bytes would almost never be a SQLite file
// with nvprof's tables, so the fuzzer's bytes fill the *values* of a valid schema instead: a
// small in-memory database with nvprof's tables (testdata/nvprof/small.sql; sqlite_values.h) whose
// ids, times, string ids, kinds, correlation ids and column types come from the input. The importer
// reads it, then every analysis pass runs on what it imported.
#include "profana/base/input_buffer.h"
#include "profana/importers/nvprof/nvprof_importer.h"
#include "run_passes.h"
#include "sqlite_values.h"

namespace {

const std::vector<const char*> kSchema = {
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
    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(_id_ INTEGER PRIMARY KEY, start INT, end INT, "
    "deviceId INT, contextId INT, streamId INT, correlationId INT, name INT)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(_id_ INTEGER PRIMARY KEY, copyKind INT, srcKind INT, "
    "dstKind INT, "
    "flags INT, bytes INT, start INT, end INT, deviceId INT, contextId INT, streamId INT, "
    "correlationId INT)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(_id_ INTEGER PRIMARY KEY, value INT, bytes INT, start "
    "INT, end INT, "
    "deviceId INT, contextId INT, streamId INT, correlationId INT)",
};

const std::vector<profana::fuzz::FuzzTable> kTables = {
    {"StringTable", 2},
    {"CUPTI_ACTIVITY_KIND_DEVICE", 3},
    {"CUPTI_ACTIVITY_KIND_MARKER", 8},
    {"CUPTI_ACTIVITY_KIND_RUNTIME", 8},
    {"CUPTI_ACTIVITY_KIND_DRIVER", 8},
    {"CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL", 8},
    {"CUPTI_ACTIVITY_KIND_KERNEL", 8},
    {"CUPTI_ACTIVITY_KIND_MEMCPY", 12},
    {"CUPTI_ACTIVITY_KIND_MEMSET", 9},
    {"Version", 1, false},
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  // Which tables exist is fuzzed too: the importer must say what is missing, not crash.
  std::string bytes = profana::fuzz::FuzzDatabase(in, kSchema, kTables);
  if (bytes.empty()) return 0;
  auto input = profana::InputFromBytes(bytes, "fuzz.sqlite");
  if (!input.ok()) std::abort();  // a SQLite file is never gzip: it must load as bytes
  auto trace = profana::nvprof::ImportNvprof(*input);
  if (trace.ok()) profana::fuzz::RunPasses(*trace);
  return 0;
}
