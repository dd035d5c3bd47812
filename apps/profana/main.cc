// profana's entry point: parse, run, print, exit. Everything else lives in cli.cc and the library.
#include <malloc.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "profana/cli.h"

namespace {

// Standard output for a command that writes as it goes (profana tree).
class StdoutSink final : public profana::OutputSink {
 public:
  profana::Status Write(std::string_view bytes) override {
    if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) == bytes.size())
      return profana::Status::Ok();
    return profana::Status(profana::ErrorCode::kIo, "standard output: write failed");
  }
};

}  // namespace

int main(int argc, char** argv) {
#if defined(PROFANA_NEEDS_AVX2)
  // Say so instead of dying on an illegal instruction (see PROFANA_ARCH in CMakeLists.txt).
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("bmi2")) {
    std::fputs(
        "profana: error: this build needs an x86-64-v3 CPU (AVX2, BMI2); rebuild with "
        "-DPROFANA_ARCH=\n",
        stderr);
    return 2;
  }
#endif
  // profana is a short batch process whose passes allocate and free column-sized buffers one
  // after another. By default glibc maps each large buffer afresh and returns it on free, and the
  // kernel zeroes every page again on the next touch: a third of the run time on a 1 GB trace.
  // Keeping freed memory in the heap for the next buffer removes most of it (scripts/bench).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's maximum
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string out, err;
  StdoutSink stdout_sink;
  int code = profana::app::RunCli(args, &out, &err, &stdout_sink);
  if (!out.empty() && std::fwrite(out.data(), 1, out.size(), stdout) != out.size())
    code = code ? code : 2;
  if (std::fflush(stdout) != 0) code = code ? code : 2;
  if (!err.empty()) std::fwrite(err.data(), 1, err.size(), stderr);
  return code;
}
