// libFuzzer target for the Nsight Systems importer: the fuzzer's bytes fill the values of a
// database with nsys's tables (sqlite_values.h); the importer reads it, then every analysis pass
// runs on what it imported.
#include "profana/base/input_buffer.h"
#include "profana/importers/nsys/nsys_importer.h"
#include "run_passes.h"
#include "sqlite_values.h"

namespace {

const std::vector<const char*> kSchema = {
    "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT)",
    "CREATE TABLE NVTX_EVENTS(start INT, end INT, eventType INT, text TEXT, globalTid INT, "
    "textId INT, domainId INT)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INT, end INT, eventClass INT, globalTid INT, "
    "correlationId INT, nameId INT, returnValue INT)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INT, end INT, deviceId INT, contextId INT, "
    "streamId INT, correlationId INT, globalPid INT, demangledName INT, shortName INT)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INT, end INT, deviceId INT, contextId INT, "
    "streamId INT, correlationId INT, globalPid INT, bytes INT, copyKind INT, srcKind INT, "
    "dstKind INT)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(start INT, end INT, deviceId INT, contextId INT, "
    "streamId INT, correlationId INT, globalPid INT, value INT, bytes INT, memKind INT)",
    "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION(start INT, end INT, deviceId INT, "
    "contextId INT, streamId INT, correlationId INT, globalPid INT, syncType INT, eventId INT)",
    "CREATE TABLE TARGET_INFO_GPU(vmId INT, id INT, name TEXT)",
    "CREATE TABLE ThreadNames(nameId INT, priority INT, globalTid INT)",
    "CREATE TABLE PROCESSES(globalPid INT, pid INT, name TEXT)",
    "CREATE TABLE ENUM_CUDA_MEM_KIND(id INTEGER PRIMARY KEY, name TEXT, label TEXT)",
};

const std::vector<profana::fuzz::FuzzTable> kTables = {
    {"StringIds", 2},
    {"NVTX_EVENTS", 7, false},
    {"CUPTI_ACTIVITY_KIND_RUNTIME", 7, false},
    {"CUPTI_ACTIVITY_KIND_KERNEL", 9, false},
    {"CUPTI_ACTIVITY_KIND_MEMCPY", 11, false},
    {"CUPTI_ACTIVITY_KIND_MEMSET", 10, false},
    {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", 9, false},
    {"TARGET_INFO_GPU", 3, false},
    {"ThreadNames", 3, false},
    {"PROCESSES", 3, false},
    {"ENUM_CUDA_MEM_KIND", 3},
};

// PyTorch's range text and API names, so the paths that parse them run on every input.
const std::vector<const char*> kFixed = {
    "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'cuLaunchKernelEx'), "
    "(3, 'aten::mm, seq = 3, op_id = 7, sizes = [[2, 3], [3]]'), (4, 'gemm')",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  std::string bytes = profana::fuzz::FuzzDatabase(in, kSchema, kTables, kFixed);
  if (bytes.empty()) return 0;
  auto input = profana::InputFromBytes(bytes, "fuzz.sqlite");
  if (!input.ok()) std::abort();  // a SQLite file is never gzip: it must load as bytes
  auto trace = profana::nsys::ImportNsys(*input);
  if (trace.ok()) profana::fuzz::RunPasses(*trace);
  return 0;
}
