// profana's entry point: parse, run, print, exit. Everything else lives in cli.cc and the library.
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "profana/base/heap.h"
#include "profana/base/memory_release.h"
#include "profana/cli.h"
#include "profana/huge_page_heap.h"
#include "profana/process_io.h"

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
  // Before anything else: the heap on huge pages, by starting again with glibc told so.
  profana::app::RestartWithHugePageHeap(argv);
  // profana is a short batch process whose passes allocate and free column-sized buffers one
  // after another. By default glibc maps each large buffer afresh and returns it on free, and the
  // kernel zeroes every page again on the next touch: a third of the run time on a 1 GB trace.
  // Keeping freed memory in the heap for the next buffer removes most of it (scripts/bench).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's maximum
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  // Except where a pass says its freed buffers will not be reused (base/memory_release.h).
  profana::SetFreedMemoryRelease(profana::ReleaseFreedHeap);
  // One heap for every thread: what the parser threads free is then where the model's sort and
  // the function events allocate, instead of in heaps of their own beside them (a 1 GB trace's
  // table peaks 10-20 MiB lower, no slower: scripts/bench).
  profana::ShareOneHeap();
  bool stdout_closed = profana::app::HoldStandardDescriptors();
  profana::app::RemoveOutputFileOnSignals();
  profana::app::ReportInputCutShortOnSigbus();
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string out, err;
  profana::app::StandardOutputSink stdout_sink(stdout_closed);
  profana::app::StandardErrorSink stderr_sink;
  int code = profana::app::RunCli(args, &out, &err, &stdout_sink,
                                  isatty(STDERR_FILENO) ? &stderr_sink : nullptr,
                                  profana::app::CapProcessMemory);
  return profana::app::PrintResults(out, std::move(err), code, stdout_closed);
}
