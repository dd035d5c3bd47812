// glibc's heap, tuned where glibc's malloc is the allocator (a sanitizer replaces it, and
// malloc_trim on glibc's own, then unused, heap is not safe there); elsewhere these do nothing.
//
// main() keeps freed memory in the heap for the next buffer: the passes allocate and free
// column-sized buffers one after another, and reusing them spares the kernel zeroing the pages
// again. What is freed at the end of a phase does not always fit the next phase's buffers, though:
// its holes then stay resident beside them.
#pragma once

namespace profana {

// Gives the heap's free pages back to the system: at the end of a phase whose freed buffers the
// next one would not fit in (a job's rank; main() installs it for the library's passes, see
// base/memory_release.h).
void ReleaseFreedHeap();

// Makes every thread allocate from one heap (glibc gives each its own arena, whose holes the
// others cannot use): main() calls it before any thread starts.
void ShareOneHeap();

}  // namespace profana
