// Giving freed memory back to the system between the phases of a pass. A pass that frees large
// buffers and then makes others of another size calls ReleaseFreedMemory between the two, so that
// the holes the first left are not resident beside the second. How memory is given back is the
// application's choice (apps/profana/heap.cc installs glibc's malloc_trim): by default, and in
// tests, nothing happens.
#pragma once

#include <vector>

namespace profana {

// Installs `release` (null: none). Call once, before any pass runs.
void SetFreedMemoryRelease(void (*release)());
void ReleaseFreedMemory();

// Gives back to the system the whole pages of [begin, end), memory the caller owns but holds
// nothing in (they read as zeros if touched again). Where the heap is on huge pages, a buffer
// reserved for more values than it got has the rest of its last 2 MiB page resident; this makes
// it 4 KiB pages again and drops the part never written.
void ReleaseUnusedPages(void* begin, void* end);

// The room `values` holds past its values, kept as room: the pages go back (ReleaseUnusedPages),
// the capacity stays.
template <typename T>
void ReleaseSpareCapacity(std::vector<T>* values) {
  ReleaseUnusedPages(values->data() + values->size(), values->data() + values->capacity());
}

}  // namespace profana
