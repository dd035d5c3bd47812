// How far a long read has got, for the app to show (the library never prints). Readers call it
// after each block they read (a few MiB; never per event), from the thread that reads.
#pragma once

#include <cstdint>
#include <functional>

namespace profana {

// done: bytes read so far; total: bytes there are to read, or 0 when that is unknown (a pipe, or
// the content of a gzip stream, whose size shows only at its end).
using ProgressFn = std::function<void(uint64_t done, uint64_t total)>;

}  // namespace profana
