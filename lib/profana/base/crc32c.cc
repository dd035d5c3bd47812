#include "profana/base/crc32c.h"

#include <cstring>

#if defined(__SSE4_2__)
#include <nmmintrin.h>
#endif

namespace profana {
namespace {

constexpr uint32_t kPoly = 0x82f63b78u;  // Castagnoli, bit-reflected

#if !defined(__SSE4_2__)
struct Table {
  uint32_t t[256];
  Table() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (kPoly & (0u - (c & 1)));
      t[i] = c;
    }
  }
};
#else
// a * b modulo the polynomial, in the reflected bit order (zlib's multmodp): the CRC register
// after n zero bytes is the register times x^(8n), which is how streams computed side by side are
// joined.
constexpr uint32_t MultModP(uint32_t a, uint32_t b) {
  uint32_t m = 1u << 31, p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) == 0) break;
    }
    m >>= 1;
    b = b & 1 ? (b >> 1) ^ kPoly : b >> 1;
  }
  return p;
}

// x^(8n) modulo the polynomial.
constexpr uint32_t XPow8n(uint64_t n) {
  uint32_t x2k = 1u << 30;  // x^1
  uint32_t p = 1u << 31;    // x^0
  for (int k = 0; k < 3; ++k) x2k = MultModP(x2k, x2k);  // x^8
  for (; n; n >>= 1, x2k = MultModP(x2k, x2k))
    if (n & 1) p = MultModP(x2k, p);
  return p;
}

uint64_t Word(const unsigned char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// The crc32 instruction takes 3 cycles but can start every cycle: three streams over three
// adjacent blocks keep it busy, then the three registers are joined (3x one stream's speed).
constexpr size_t kBlock = 8192;
constexpr uint32_t kShiftBlock = XPow8n(kBlock);  // joins a register to the next block's
#endif

}  // namespace

uint32_t Crc32c(const void* data, size_t size, uint32_t crc) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  uint32_t c = ~crc;
#if defined(__SSE4_2__)
  uint64_t c64 = c;
  for (; size >= 3 * kBlock; size -= 3 * kBlock, p += 3 * kBlock) {
    uint64_t a = c64, b = 0, d = 0;
    for (size_t i = 0; i < kBlock; i += 8) {
      a = _mm_crc32_u64(a, Word(p + i));
      b = _mm_crc32_u64(b, Word(p + kBlock + i));
      d = _mm_crc32_u64(d, Word(p + 2 * kBlock + i));
    }
    uint32_t ab = MultModP(kShiftBlock, static_cast<uint32_t>(a)) ^ static_cast<uint32_t>(b);
    c64 = MultModP(kShiftBlock, ab) ^ static_cast<uint32_t>(d);
  }
  for (; size >= 8; size -= 8, p += 8) c64 = _mm_crc32_u64(c64, Word(p));
  c = static_cast<uint32_t>(c64);
  for (; size; --size, ++p) c = _mm_crc32_u8(c, *p);
#else
  static const Table table;
  for (; size; --size, ++p) c = table.t[(c ^ *p) & 0xff] ^ (c >> 8);
#endif
  return ~c;
}

}  // namespace profana
