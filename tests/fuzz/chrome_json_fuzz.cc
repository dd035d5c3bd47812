// libFuzzer target for the Chrome-trace JSON importer (plain or gzip, with truncation repair):
// any bytes either fail with a Status or give a Trace that every analysis pass can run on.
// Build and run: see docs/fuzzing.md. Seeds: small JSON files of testdata/ (smoke.sh).
#include <cstdint>
#include <string_view>

#include "profana/base/input_buffer.h"
#include "profana/importers/chrome_json/chrome_json_importer.h"
#include "run_passes.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // A small budget: a gzip bomb among the inputs must stop at the limit, not at the fuzzer's.
  profana::InputLimits limits;
  limits.max_bytes = 16 << 20;
  auto input = profana::InputFromBytes(bytes, "fuzz.json", limits);
  if (!input.ok() || !profana::json::SniffChromeJson(input->view())) return 0;
  auto trace = profana::json::ImportChromeJson(*input);
  if (trace.ok()) profana::fuzz::RunPasses(*trace);
  return 0;
}
