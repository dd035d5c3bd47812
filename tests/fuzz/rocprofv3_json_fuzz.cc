// libFuzzer target for the rocprofv3 JSON importer: any bytes either fail with a Status or give a
// Trace that every analysis pass can run on. Seeds: testdata/rocprofv3 and the bad rocprofv3
// files (smoke.sh).
#include <cstdint>
#include <string_view>

#include "profana/base/input_buffer.h"
#include "profana/importers/rocm/rocprofv3_json_importer.h"
#include "run_passes.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  profana::InputLimits limits;
  limits.max_bytes = 16 << 20;
  auto input = profana::InputFromBytes(bytes, "fuzz.json", limits);
  if (!input.ok() || !profana::rocm::SniffRocprofv3Json(input->view())) return 0;
  auto trace = profana::rocm::ImportRocprofv3Json(*input);
  if (trace.ok()) profana::fuzz::RunPasses(*trace);
  return 0;
}
