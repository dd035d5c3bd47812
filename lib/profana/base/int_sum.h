// Sums of counts a damaged file can make absurd (byte counts, durations near the range of times,
// forged totals): they never overflow, since signed overflow is undefined behaviour.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

namespace profana {

// Adds b to *a when the exact sum fits; false, and *a unchanged, when it does not. For sums over
// several traces or summary files (a job's ranks, merged summaries), which no import bounds.
[[nodiscard]] inline bool CheckedAdd(int64_t* a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(*a, b, &r)) return false;
  *a = r;
  return true;
}

// Adds without undefined behaviour, wrapping as unsigned sums do, for the sums over one trace:
// CheckSumsFit (model/trace_sums.h) refuses a trace whose sums could pass int64_t, so these never
// wrap; a difference of two such sums (a self time) is exact either way.
inline int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

// Stops at INT64_MAX or INT64_MIN: where a sum is shown as a size or a weight.
inline int64_t SatAdd(int64_t a, int64_t b) {
  int64_t r;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return b > 0 ? INT64_MAX : INT64_MIN;
}

// A 128-bit integer in decimal (fmt has no __int128): sums of squares, totals past 64 bits.
inline std::string Int128Text(__int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : v;
  std::string digits;
  while (u) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

}  // namespace profana
