// Unions of half-open [start, end) nanosecond intervals and their measure inside a window: the
// interval arithmetic of the step breakdown.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace profana::job {

using Interval = std::pair<int64_t, int64_t>;

// Sorts and merges in place: the result is disjoint, ascending, without empty intervals.
inline void MakeUnion(std::vector<Interval>* v) {
  std::sort(v->begin(), v->end());
  size_t out = 0;
  for (const Interval& iv : *v) {
    if (iv.second <= iv.first) continue;
    if (out > 0 && iv.first <= (*v)[out - 1].second) {
      (*v)[out - 1].second = std::max((*v)[out - 1].second, iv.second);
    } else {
      (*v)[out++] = iv;
    }
  }
  v->resize(out);
}

// The union of two unions.
inline std::vector<Interval> UnionOf(const std::vector<Interval>& a,
                                     const std::vector<Interval>& b) {
  std::vector<Interval> out(a);
  out.insert(out.end(), b.begin(), b.end());
  MakeUnion(&out);
  return out;
}

// How much of [start, end) a union covers.
inline int64_t Measure(const std::vector<Interval>& u, int64_t start, int64_t end) {
  if (end <= start) return 0;
  auto it = std::upper_bound(u.begin(), u.end(), start,
                             [](int64_t t, const Interval& iv) { return t < iv.second; });
  int64_t total = 0;
  for (; it != u.end() && it->first < end; ++it)
    total += std::min(end, it->second) - std::max(start, it->first);
  return total;
}

}  // namespace profana::job
