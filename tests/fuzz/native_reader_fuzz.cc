// libFuzzer target for the native reader and its text twin: any bytes either fail with a Status
// or give a Trace that the passes can analyse and that writes back to a file reading the same.
// Build: cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DPROFANA_FUZZ=ON
//        -DPROFANA_BUILD_TESTS=OFF && cmake --build build-fuzz --target native_reader_fuzz
// Run:   build-fuzz/tests/fuzz/native_reader_fuzz CORPUS_DIR  (seeds: tests/fuzz/smoke.sh)
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "profana/io/native_reader.h"
#include "profana/io/native_text.h"
#include "profana/io/native_writer.h"
#include "run_passes.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  profana::LoadedTrace loaded;
  if (profana::native::SniffNativeText(bytes)) {
    auto text = profana::native::ReadNativeText(bytes, "fuzz");
    if (!text.ok()) return 0;
    loaded.trace = std::move(*text);
  } else {
    auto binary = profana::native::ReadNative(bytes, "fuzz");
    if (!binary.ok()) return 0;
    loaded = std::move(*binary);
  }
  const profana::Trace& trace = loaded.trace;
  // A file the reader accepts must be safe for every pass and report, with its function event
  // index too.
  profana::fuzz::RunReports(trace, loaded.function_index);
  // And it writes back to a file that reads to the same bytes.
  std::string again = profana::native::WriteNative(trace, loaded.function_index);
  auto reread = profana::native::ReadNative(again, "again");
  if (!reread.ok() || profana::native::WriteNative(reread->trace, reread->function_index) != again)
    std::abort();
  return 0;
}
