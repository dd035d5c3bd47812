// Giving freed memory back to the system between the phases of a pass. A pass that frees large
// buffers and then makes others of another size calls ReleaseFreedMemory between the two, so that
// the holes the first left are not resident beside the second. How memory is given back is the
// application's choice (apps/profana/heap.cc installs glibc's malloc_trim): by default, and in
// tests, nothing happens.
#pragma once

namespace profana {

// Installs `release` (null: none). Call once, before any pass runs.
void SetFreedMemoryRelease(void (*release)());
void ReleaseFreedMemory();

}  // namespace profana
