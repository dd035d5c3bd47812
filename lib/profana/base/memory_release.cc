#include "profana/base/memory_release.h"

#include <atomic>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace profana {
namespace {
std::atomic<void (*)()> installed{nullptr};
}  // namespace

void SetFreedMemoryRelease(void (*release)()) { installed.store(release); }

void ReleaseFreedMemory() {
  if (void (*release)() = installed.load()) release();
}

void ReleaseUnusedPages(void* begin, void* end) {
#if defined(__linux__)
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t from = (reinterpret_cast<uintptr_t>(begin) + page - 1) & ~(page - 1);
  uintptr_t to = reinterpret_cast<uintptr_t>(end) & ~(page - 1);
  // Advice only: where the kernel declines, the pages stay as they were.
  if (from < to) madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
#else
  (void)begin, (void)end;
#endif
}

}  // namespace profana
