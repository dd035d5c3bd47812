// Differential libFuzzer target for the streaming JSON importer: the bytes are written to a file
// and streamed with small, input-dependent reads and batches on two workers. Whenever streaming
// accepts the input, the whole-file importer must build the very same model (compared as native
// bytes); when it declines, it must say why. Any difference aborts: a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include "profana/base/input_buffer.h"
#include "profana/importers/chrome_json/chrome_json_importer.h"
#include "profana/importers/chrome_json/streaming_import.h"
#include "profana/io/native_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path =
      "/tmp/profana-streaming-fuzz-" + std::to_string(getpid()) + ".json";
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  profana::json::StreamOptions options;
  options.read_bytes = 64 + size % 251;
  options.batch_bytes = 1 + size % 97;
  options.workers = 2;
  options.max_bytes = 16 << 20;
  auto streamed = profana::json::StreamChromeJson(path, options);
  if (!streamed.trace) {
    if (streamed.fallback_reason.empty()) std::abort();
    return 0;
  }
  profana::InputLimits limits;
  limits.max_bytes = 16 << 20;
  auto input = profana::InputFromBytes(bytes, "fuzz.json", limits);
  if (!input.ok()) std::abort();
  auto whole = profana::json::ImportChromeJson(*input);
  if (!whole.ok()) {
    std::fprintf(stderr, "streamed accepted what the whole-file import refuses: %s\n",
                 whole.status().message().c_str());
    std::abort();
  }
  if (profana::native::WriteNative(*whole) != profana::native::WriteNative(*streamed.trace)) {
    std::fprintf(stderr, "streamed and whole-file models differ\n");
    std::abort();
  }
  return 0;
}
