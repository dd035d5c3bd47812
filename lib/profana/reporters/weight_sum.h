// Sums of stack weights. Every weight is positive, and a damaged trace's (a kernel of 2^62 ns
// is in range) can together pass INT64_MAX: the sum stops there instead of overflowing.
#pragma once

#include <cstdint>

namespace profana::report {

inline void AddWeight(int64_t* sum, int64_t w) {
  if (__builtin_add_overflow(*sum, w, sum)) *sum = w < 0 ? INT64_MIN : INT64_MAX;
}

}  // namespace profana::report
