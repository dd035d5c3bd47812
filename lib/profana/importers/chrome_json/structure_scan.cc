#include "profana/importers/chrome_json/structure_scan.h"

#include <cstring>

#if defined(__AVX2__) || defined(__PCLMUL__)
#include <immintrin.h>
#endif

namespace profana::json {
namespace {

struct Masks {
  uint64_t quote, backslash, open, close;
};

#if defined(__AVX2__)
inline uint64_t Eq(__m256i lo, __m256i hi, char c) {
  __m256i v = _mm256_set1_epi8(c);
  uint32_t a = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, v)));
  uint32_t b = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, v)));
  return a | (static_cast<uint64_t>(b) << 32);
}
inline Masks Classify(const char* p) {
  __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  // '[' and ']' differ from '{' and '}' by the 0x20 bit alone, and no other byte becomes a brace
  // with that bit set: one compare finds both opening brackets, one both closing ones.
  __m256i bit = _mm256_set1_epi8(0x20);
  __m256i lo_set = _mm256_or_si256(lo, bit), hi_set = _mm256_or_si256(hi, bit);
  return {Eq(lo, hi, '"'), Eq(lo, hi, '\\'), Eq(lo_set, hi_set, '{'), Eq(lo_set, hi_set, '}')};
}
#else
inline Masks Classify(const char* p) {
  Masks m{0, 0, 0, 0};
  for (int i = 0; i < 64; ++i) {
    uint64_t bit = 1ull << i;
    switch (p[i]) {
      case '"':
        m.quote |= bit;
        break;
      case '\\':
        m.backslash |= bit;
        break;
      case '{':
      case '[':
        m.open |= bit;
        break;
      case '}':
      case ']':
        m.close |= bit;
        break;
      default:
        break;
    }
  }
  return m;
}
#endif

// Characters escaped by a backslash: simdjson's branchless odd-run detection (stage 1).
inline uint64_t Escaped(uint64_t backslash, uint64_t* prev_escaped) {
  backslash &= ~*prev_escaped;
  uint64_t follows_escape = backslash << 1 | *prev_escaped;
  const uint64_t even_bits = 0x5555555555555555ull;
  uint64_t odd_sequence_starts = backslash & ~even_bits & ~follows_escape;
  uint64_t sequences_starting_on_even_bits;
  *prev_escaped =
      __builtin_add_overflow(odd_sequence_starts, backslash, &sequences_starting_on_even_bits);
  uint64_t invert_mask = sequences_starting_on_even_bits << 1;
  return (even_bits ^ invert_mask) & follows_escape;
}

// Bit i set when an odd number of bits at or below i are set: the inside of strings. A carry-less
// multiply by all ones computes it in one instruction where the CPU has one (simdjson's way).
inline uint64_t PrefixXor(uint64_t x) {
#if defined(__PCLMUL__)
  __m128i product = _mm_clmulepi64_si128(_mm_set_epi64x(0, static_cast<int64_t>(x)),
                                         _mm_set1_epi8(static_cast<char>(0xFF)), 0);
  return static_cast<uint64_t>(_mm_cvtsi128_si64(product));
#else
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
#endif
}

// The first `left` bits of a block (all of them from 64 on): the bytes that are the text's.
inline uint64_t ValidBits(size_t left) { return left >= 64 ? ~0ull : (1ull << left) - 1; }

// The brackets outside strings among a block's valid bytes, carrying the escape and string state
// from the block before into the next.
struct Brackets {
  uint64_t open, close;
};
inline Brackets BracketsOutsideStrings(const char* p, uint64_t valid, uint64_t* prev_escaped,
                                       uint64_t* prev_in_string) {
  Masks m = Classify(p);
  // Most blocks hold no backslash, and follow none.
  uint64_t quotes = m.quote;
  if (m.backslash | *prev_escaped) quotes &= ~Escaped(m.backslash, prev_escaped);
  uint64_t in_string = PrefixXor(quotes) ^ *prev_in_string;
  *prev_in_string = static_cast<uint64_t>(static_cast<int64_t>(in_string) >> 63);
  return {m.open & ~in_string & valid, m.close & ~in_string & valid};
}

// A mapped file's bytes come to the scanner cold, and the hardware's own prefetch stops at each
// 4 KiB page: asking for the line this far ahead keeps the loads from waiting on memory (a
// 1 GB trace's scan took twice as long without it). A prefetch never faults, even past the
// end of what is mapped.
constexpr size_t kPrefetchAhead = 2048;

}  // namespace

ScanResult ScanArrayElements(const char* data, size_t begin, size_t end, bool more_to_come,
                             size_t stop_after, ScanState* state) {
  // The state in locals: the bytes are chars, which may alias it, so the compiler would reload it
  // from memory at every block.
  ScanState st = *state;
  ScanResult result;
  size_t pos = begin;
  while (pos < end) {
    if (end - pos < 64 && more_to_come) break;
    __builtin_prefetch(data + pos + kPrefetchAhead);
    auto [open, close] = BracketsOutsideStrings(data + pos, ValidBits(end - pos), &st.prev_escaped,
                                                &st.prev_in_string);
    int64_t opens = __builtin_popcountll(open), closes = __builtin_popcountll(close);
    if (st.depth + opens > st.max_depth) {
      result.maybe_too_deep = true;
      result.next = pos;
      *state = st;
      return result;
    }
    if (st.depth - closes > 0) {
      // No close in this block can bring the depth back to the array's level.
      st.depth += opens - closes;
    } else {
      // Without a branch on the kind of each bracket (as good as random): only the array's own
      // close, once per file, leaves the loop.
      for (uint64_t brackets = open | close; brackets; brackets &= brackets - 1) {
        int bit = __builtin_ctzll(brackets);
        st.depth += 1 - 2 * static_cast<int64_t>(close >> bit & 1);
        result.last_element_end = st.depth == 0 ? pos + bit + 1 : result.last_element_end;
        if (st.depth < 0) {
          result.array_close = pos + bit + 1;
          result.next = pos + bit + 1;
          *state = st;
          return result;
        }
      }
    }
    pos += end - pos >= 64 ? 64 : end - pos;
    if (result.last_element_end && pos >= stop_after) break;
  }
  result.next = pos;
  *state = st;
  return result;
}

void CountOpeningBrackets(const char* data, size_t size, std::vector<uint32_t>* before) {
  size_t blocks = (size + 63) / 64;
  before->resize(blocks + 1);
  uint32_t* out = before->data();
  uint32_t count = 0;
  for (size_t k = 0; k < blocks; ++k) {
    out[k] = count;
    uint64_t opens = Classify(data + k * 64).open & ValidBits(size - k * 64);
    count += static_cast<uint32_t>(__builtin_popcountll(opens));
  }
  out[blocks] = count;
}

bool NestsDeeperThan(const char* data, size_t size, int64_t max_depth) {
  uint64_t prev_escaped = 0, prev_in_string = 0;
  int64_t depth = 0;
  for (size_t pos = 0; pos < size; pos += 64) {
    auto [open, close] =
        BracketsOutsideStrings(data + pos, ValidBits(size - pos), &prev_escaped, &prev_in_string);
    int64_t opens = __builtin_popcountll(open), closes = __builtin_popcountll(close);
    if (depth + opens <= max_depth) {  // the common case: no level in this block can be too deep
      depth += opens - closes;
      continue;
    }
    for (uint64_t brackets = open | close; brackets; brackets &= brackets - 1) {
      int bit = __builtin_ctzll(brackets);
      depth += (open >> bit & 1) ? 1 : -1;
      if (depth > max_depth) return true;
    }
  }
  return false;
}

}  // namespace profana::json
