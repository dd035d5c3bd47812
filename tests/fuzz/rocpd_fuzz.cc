// libFuzzer target for the rocpd (rocprofiler-sdk) importer: the fuzzer's bytes fill the values
// of a database with rocpd's uuid-suffixed tables (sqlite_values.h); the importer reads it, then
// every analysis pass runs on what it imported.
#include "profana/base/input_buffer.h"
#include "profana/importers/rocm/rocpd_importer.h"
#include "run_passes.h"
#include "sqlite_values.h"

namespace {

const std::vector<const char*> kSchema = {
    "CREATE TABLE rocpd_string_0a1b(id INTEGER PRIMARY KEY, guid TEXT, string TEXT)",
    "CREATE TABLE rocpd_event_0a1b(id INTEGER PRIMARY KEY, guid TEXT, category_id INT, "
    "stack_id INT, parent_stack_id INT, correlation_id INT, call_stack TEXT, line_info TEXT, "
    "extdata TEXT)",
    "CREATE TABLE rocpd_region_0a1b(id INTEGER PRIMARY KEY, guid TEXT, nid INT, pid INT, "
    "tid INT, start INT, end INT, name_id INT, event_id INT, extdata TEXT)",
    "CREATE TABLE rocpd_kernel_dispatch_0a1b(id INTEGER PRIMARY KEY, guid TEXT, nid INT, "
    "pid INT, tid INT, agent_id INT, kernel_id INT, dispatch_id INT, queue_id INT, "
    "stream_id INT, start INT, end INT, region_name_id INT, event_id INT)",
    "CREATE TABLE rocpd_memory_copy_0a1b(id INTEGER PRIMARY KEY, guid TEXT, nid INT, pid INT, "
    "tid INT, start INT, end INT, name_id INT, dst_agent_id INT, src_agent_id INT, size INT, "
    "queue_id INT, stream_id INT, event_id INT)",
    "CREATE TABLE rocpd_info_agent_0a1b(id INTEGER PRIMARY KEY, guid TEXT, nid INT, pid INT, "
    "type TEXT, type_index INT, name TEXT, product_name TEXT)",
    "CREATE TABLE rocpd_info_kernel_symbol_0a1b(id INTEGER PRIMARY KEY, guid TEXT, nid INT, "
    "pid INT, code_object_id INT, kernel_name TEXT, display_name TEXT)",
};

const std::vector<profana::fuzz::FuzzTable> kTables = {
    {"rocpd_string_0a1b", 3},
    {"rocpd_event_0a1b", 9},
    {"rocpd_region_0a1b", 10},
    {"rocpd_kernel_dispatch_0a1b", 14},
    {"rocpd_memory_copy_0a1b", 14},
    {"rocpd_info_agent_0a1b", 8},
    {"rocpd_info_kernel_symbol_0a1b", 7},
};

// Categories, a GPU agent and a roctx message, so the marker, HIP and copy paths run.
const std::vector<const char*> kFixed = {
    "INSERT INTO rocpd_string_0a1b(id, string) VALUES (1, 'MARKER_CORE_API'), "
    "(2, 'HIP_RUNTIME_API'), (3, 'HSA_CORE_API'), (4, 'MEMORY_COPY_HOST_TO_DEVICE'), "
    "(5, 'hipLaunchKernel')",
    "INSERT INTO rocpd_info_agent_0a1b(id, type, type_index, product_name) VALUES "
    "(1, 'GPU', 0, 'MI300X'), (2, 'CPU', 0, 'EPYC')",
    "INSERT INTO rocpd_event_0a1b(id, category_id, stack_id, extdata) VALUES "
    "(1, 1, 1, '{\"message\":\"aten::mm, seq = 3, op_id = 7, sizes = [[2, 3], [3]]\"}')",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  std::string bytes = profana::fuzz::FuzzDatabase(in, kSchema, kTables, kFixed);
  if (bytes.empty()) return 0;
  auto input = profana::InputFromBytes(bytes, "fuzz.db");
  if (!input.ok()) std::abort();
  auto trace = profana::rocm::ImportRocpd(*input);
  if (trace.ok()) profana::fuzz::RunPasses(*trace);
  return 0;
}
