#include "profana/base/crc32c.h"

#include <isa-l/crc.h>

#include <algorithm>

namespace profana {

uint32_t Crc32c(const void* data, size_t size, uint32_t crc) {
  // ISA-L's crc32_iscsi is CRC-32C with the register passed in and out uninverted; it picks the
  // fastest code for the CPU at run time (folding with carry-less multiplies, or three crc32
  // instruction streams), about 13 GB/s a core here. Its length is an int: big inputs go in pieces.
  auto* p = static_cast<unsigned char*>(const_cast<void*>(data));
  uint32_t c = ~crc;
  while (size > 0) {
    size_t n = std::min<size_t>(size, size_t{1} << 30);
    c = crc32_iscsi(p, static_cast<int>(n), c);
    p += n;
    size -= n;
  }
  return ~c;
}

}  // namespace profana
