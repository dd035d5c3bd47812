// CRC-32C (Castagnoli), the checksum of the native format's sections, computed by ISA-L (the
// library profana already uses to inflate gzip), which picks the fastest code the CPU has.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace profana {

// crc is the value of the bytes before (0 to start); Crc32c(b, Crc32c(a)) == Crc32c(a + b).
uint32_t Crc32c(const void* data, size_t size, uint32_t crc = 0);
inline uint32_t Crc32c(std::string_view bytes, uint32_t crc = 0) {
  return Crc32c(bytes.data(), bytes.size(), crc);
}

}  // namespace profana
