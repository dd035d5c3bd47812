#include "profana/huge_page_heap.h"

#include <dirent.h>
#include <fcntl.h>
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

constexpr off_t kLarge = off_t{16} << 20;

// Whether the directory holds a file of kLarge bytes or more (a job's rank files lie in it).
bool HoldsLargeFile(const char* path) {
  DIR* dir = opendir(path);
  if (!dir) return false;
  bool large = false;
  while (const dirent* entry = readdir(dir)) {
    struct stat st;
    if (fstatat(dirfd(dir), entry->d_name, &st, 0) == 0 && S_ISREG(st.st_mode) &&
        st.st_size >= kLarge) {
      large = true;
      break;
    }
  }
  closedir(dir);
  return large;
}

// Whether an argument other than an output names input enough for the heap to matter: a file of
// 16 MiB or more, or a directory holding one (a job), or standard input. A run on less touches a
// few MB: starting again would cost it more than its page faults save, and its buffers' last
// pages, resident whole, would weigh more in its peak.
bool NamesLargeInput(char** argv) {
  for (char** a = argv + 1; *a; ++a) {
    std::string arg = *a;
    if (arg == "-o" || arg == "--output") {
      if (!*++a) break;
      continue;
    }
    struct stat st;
    if (arg == "-") return true;
    if (stat(*a, &st) != 0) continue;
    if (S_ISREG(st.st_mode) && st.st_size >= kLarge) return true;
    if (S_ISDIR(st.st_mode) && HoldsLargeFile(*a)) return true;
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
