#include "profana/base/heap.h"

#include <cstdlib>  // defines __GLIBC__ where glibc is the C library

#include "profana/base/sanitizers.h"
#if defined(__GLIBC__) && !defined(PROFANA_ASAN)
#define PROFANA_TUNE_GLIBC_HEAP 1
#include <malloc.h>
#endif

namespace profana {

void ReleaseFreedHeap() {
#if defined(PROFANA_TUNE_GLIBC_HEAP)
  malloc_trim(0);
#endif
}

void ShareOneHeap() {
#if defined(PROFANA_TUNE_GLIBC_HEAP)
  mallopt(M_ARENA_MAX, 1);
#endif
}

}  // namespace profana
