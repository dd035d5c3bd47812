#include "profana/base/memory_release.h"

#include <atomic>

namespace profana {
namespace {
std::atomic<void (*)()> installed{nullptr};
}  // namespace

void SetFreedMemoryRelease(void (*release)()) { installed.store(release); }

void ReleaseFreedMemory() {
  if (void (*release)() = installed.load()) release();
}

}  // namespace profana
