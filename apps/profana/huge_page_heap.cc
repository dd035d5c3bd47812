#include "profana/huge_page_heap.h"

#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>  // defines __GLIBC__ where glibc is the C library
#include <fstream>
#include <string>

#include "profana/base/sanitizers.h"

namespace profana::app {

#if defined(__GLIBC__) && defined(__linux__) && !defined(PROFANA_ASAN)
namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";

// The kernel gives huge pages to memory advised for them ("madvise"), or to all ("always": the
// heap has them already), or to none.
bool KernelAdvisesHugePages() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(in, modes);
  return modes.find("[madvise]") != std::string::npos;
}

// Whether an argument other than -o's names input enough for huge pages to pay: a file of
// 128 MiB or more (of JSON, counting a .gz file's as eight times its size), or standard input. A
// smaller file's run touches a few tens of MB: it gains a few hundredths of a second, and its
// buffers' last pages, resident whole, add half to its peak. A job's workers give each rank's
// memory back before the next rank's, so a directory's run faults its pages afresh on either size
// of page, and huge ones only add to its peak.
bool NamesLargeInput(char** argv) {
  constexpr off_t kLarge = off_t{128} << 20;
  for (char** a = argv + 1; *a; ++a) {
    std::string arg = *a;
    if (arg == "-o" || arg == "--output") {
      if (!*++a) break;
      continue;
    }
    struct stat st;
    if (arg == "-") return true;
    if (stat(*a, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    // A gzipped Kineto trace holds about ten times its size of JSON; eight errs low.
    bool gzipped = arg.size() > 3 && arg.compare(arg.size() - 3, 3, ".gz") == 0;
    if ((gzipped ? st.st_size * 8 : st.st_size) >= kLarge) return true;
  }
  return false;
}

// Starting again would not do what it should: a program run with more privileges (glibc drops
// GLIBC_TUNABLES there, so every start would start again), or one the dynamic loader was asked
// to run (ld.so PROGRAM: /proc/self/exe is the loader, and there is no interpreter's base).
bool CannotRestart(char** argv) {
  return !argv[0] || getauxval(AT_SECURE) != 0 || getauxval(AT_BASE) == 0;
}

}  // namespace

void RestartWithHugePageHeap(char** argv) {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::string had = tunables ? tunables : "";
  if (had.find(kTunable) != std::string::npos || CannotRestart(argv) || !NamesLargeInput(argv) ||
      !KernelAdvisesHugePages())
    return;
  std::string with = had.empty() ? std::string(kTunable) + "=1" : had + ":" + kTunable + "=1";
  if (setenv("GLIBC_TUNABLES", with.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Not restarted (no /proc, or the binary is gone): on as before, the environment as it was.
  if (tunables)
    setenv("GLIBC_TUNABLES", had.c_str(), 1);
  else
    unsetenv("GLIBC_TUNABLES");
}
#else
void RestartWithHugePageHeap(char**) {}
#endif

}  // namespace profana::app
