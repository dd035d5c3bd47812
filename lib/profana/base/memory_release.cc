#include "profana/base/memory_release.h"

#include <atomic>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <sys/prctl.h>
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

#if defined(__linux__)
namespace {
// Memory tagging (arm64 MTE, glibc.mem.tagging): a page given back comes again with tag 0, and
// the buffer's tagged pointer would then fault on it. Such a heap keeps its pages.
bool HeapIsTagged() {
#if defined(PR_GET_TAGGED_ADDR_CTRL) && defined(PR_MTE_TCF_MASK)
  int ctrl = prctl(PR_GET_TAGGED_ADDR_CTRL, 0, 0, 0, 0);
  return ctrl >= 0 && (ctrl & PR_MTE_TCF_MASK) != 0;
#else
  return false;
#endif
}
}  // namespace
#endif

void ReleaseUnusedPages(void* begin, void* end) {
#if defined(__linux__)
  static const bool tagged = HeapIsTagged();
  if (tagged) return;
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
