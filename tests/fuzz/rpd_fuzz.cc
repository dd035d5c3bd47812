// libFuzzer target for the rocmProfileData importer: the fuzzer's bytes fill the values of a
// database with RPD's tables, RPD's autograd table included (sqlite_values.h); the importer
// reads it, then every analysis pass runs on what it imported.
#include "profana/base/input_buffer.h"
#include "profana/importers/rocm/rpd_importer.h"
#include "run_passes.h"
#include "sqlite_values.h"

namespace {

const std::vector<const char*> kSchema = {
    "CREATE TABLE rocpd_string(id INTEGER PRIMARY KEY, string TEXT)",
    "CREATE TABLE rocpd_api(id INTEGER PRIMARY KEY, pid INT, tid INT, start INT, end INT, "
    "apiName_id INT, args_id INT)",
    "CREATE TABLE rocpd_op(id INTEGER PRIMARY KEY, gpuId INT, queueId INT, sequenceId INT, "
    "completionSignal TEXT, start INT, end INT, description_id INT, opType_id INT)",
    "CREATE TABLE rocpd_api_ops(id INTEGER PRIMARY KEY, api_id INT, op_id INT)",
    "CREATE TABLE ext_autogradapi(api_ptr_id INTEGER PRIMARY KEY, autogradName_id INT, seq INT, "
    "op_id INT, sizes TEXT, input_op_ids TEXT)",
    "CREATE TABLE rocpd_metadata(id INTEGER PRIMARY KEY, tag TEXT, value TEXT)",
};

const std::vector<profana::fuzz::FuzzTable> kTables = {
    {"rocpd_string", 2},  {"rocpd_api", 7},       {"rocpd_op", 9},
    {"rocpd_api_ops", 3}, {"ext_autogradapi", 6}, {"rocpd_metadata", 3},
};

// The names the importer matches on, so the marker, graph and copy paths run on every input.
const std::vector<const char*> kFixed = {
    "INSERT INTO rocpd_string VALUES (1, 'UserMarker'), (2, 'hipLaunchKernel'), "
    "(3, 'KernelExecution'), (4, 'Task'), (5, 'CopyHostToDevice'), (6, 'FillBuffer'), "
    "(7, 'aten::mm, seq = 3, op_id = 7, sizes = [[2, 3], [3]]'), (8, 'hsa_signal_wait')",
    "INSERT INTO rocpd_metadata VALUES (1, 'schema_version', '2')",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  std::string bytes = profana::fuzz::FuzzDatabase(in, kSchema, kTables, kFixed);
  if (bytes.empty()) return 0;
  auto input = profana::InputFromBytes(bytes, "fuzz.rpd");
  if (!input.ok()) std::abort();
  auto trace = profana::rocm::ImportRpd(*input);
  if (trace.ok()) profana::fuzz::RunPasses(*trace);
  return 0;
}
