// Sums of counts a damaged file can make absurd (byte counts, durations near the range of times,
// forged totals): they never overflow, since signed overflow is undefined behaviour.
#pragma once

#include <cstdint>

namespace profana {

// Wraps around, as unsigned sums do: where the sum's exact value is carried on (the rows of key
// averages, their totals), so adding and later subtracting the same damaged value undoes it.
inline int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

// Stops at INT64_MAX or INT64_MIN: where a sum is shown as a size or a weight.
inline int64_t SatAdd(int64_t a, int64_t b) {
  int64_t r;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return b > 0 ? INT64_MAX : INT64_MIN;
}

}  // namespace profana
