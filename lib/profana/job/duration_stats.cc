#include "profana/job/duration_stats.h"

#include <algorithm>
#include <cmath>

namespace profana::job {
namespace {
constexpr double kGamma = 1.01 / 0.99;
// Bucket 0 holds 0 and negative durations (clipped events); positive values start at 1.
}  // namespace

int32_t DurationStats::Bucket(int64_t ns) {
  if (ns <= 0) return 0;
  return 1 + static_cast<int32_t>(std::ceil(std::log(static_cast<double>(ns)) / std::log(kGamma)));
}

double DurationStats::BucketValue(int32_t bucket) {
  if (bucket <= 0) return 0;
  // The middle of (gamma^(i-1), gamma^i] in DDSketch's sense: 2 gamma^i / (gamma + 1).
  return 2 * std::pow(kGamma, bucket - 1) / (kGamma + 1);
}

bool DurationStats::Add(int64_t ns, int64_t times) {
  if (times <= 0) return true;
  int64_t count, sum, product;
  __int128 squares;
  if (__builtin_add_overflow(count_, times, &count) ||
      __builtin_mul_overflow(ns, times, &product) || __builtin_add_overflow(sum_, product, &sum) ||
      __builtin_mul_overflow(static_cast<__int128>(ns) * ns, static_cast<__int128>(times),
                             &squares) ||
      __builtin_add_overflow(sum_squares_, squares, &squares))
    return false;
  if (count_ == 0) {
    min_ = max_ = ns;
  } else {
    min_ = std::min(min_, ns);
    max_ = std::max(max_, ns);
  }
  count_ = count;
  sum_ = sum;
  sum_squares_ = squares;
  if (sketch_.empty()) {
    exact_[ns] += times;
    if (exact_.size() > kExactLimit) ToSketch();
  } else {
    sketch_[Bucket(ns)] += times;
  }
  return true;
}

bool DurationStats::AddAll(std::vector<int64_t>* values) {
  std::sort(values->begin(), values->end());
  bool added = true;
  for (size_t i = 0, n = values->size(); i < n;) {
    size_t j = i + 1;
    while (j < n && (*values)[j] == (*values)[i]) ++j;
    added &= Add((*values)[i], static_cast<int64_t>(j - i));
    i = j;
  }
  return added;
}

void DurationStats::ToSketch() {
  for (const auto& [ns, n] : exact_) sketch_[Bucket(ns)] += n;
  exact_.clear();
}

bool DurationStats::CanMerge(const DurationStats& o) const {
  int64_t count, sum;
  __int128 squares;
  return !__builtin_add_overflow(count_, o.count_, &count) &&
         !__builtin_add_overflow(sum_, o.sum_, &sum) &&
         !__builtin_add_overflow(sum_squares_, o.sum_squares_, &squares);
}

bool DurationStats::Merge(const DurationStats& o) {
  if (o.count_ == 0) return true;
  if (!CanMerge(o)) return false;
  if (count_ == 0) {
    min_ = o.min_;
    max_ = o.max_;
  } else {
    min_ = std::min(min_, o.min_);
    max_ = std::max(max_, o.max_);
  }
  count_ += o.count_;
  sum_ += o.sum_;
  sum_squares_ += o.sum_squares_;
  // Each value's or bucket's count is at most count_, which fits.
  if (sketch_.empty() && o.sketch_.empty()) {
    for (const auto& [ns, n] : o.exact_) exact_[ns] += n;
    if (exact_.size() > kExactLimit) ToSketch();
    return true;
  }
  if (sketch_.empty()) ToSketch();
  for (const auto& [ns, n] : o.exact_) sketch_[Bucket(ns)] += n;
  for (const auto& [b, n] : o.sketch_) sketch_[b] += n;
  return true;
}

bool DurationStats::Restore(int64_t count, int64_t sum, __int128 sum_squares, int64_t min,
                            int64_t max, std::map<int64_t, int64_t> exact,
                            std::map<int32_t, int64_t> sketch, DurationStats* out) {
  if (count < 0 || (count > 0 && min > max) || (!exact.empty() && !sketch.empty())) return false;
  if (exact.size() > kExactLimit) return false;
  int64_t seen = 0;
  for (const auto& [v, n] : exact) {
    if (n <= 0 || v < min || v > max || __builtin_add_overflow(seen, n, &seen)) return false;
  }
  for (const auto& [b, n] : sketch) {
    if (n <= 0 || __builtin_add_overflow(seen, n, &seen)) return false;
  }
  if (seen != count) return false;
  out->count_ = count;
  out->sum_ = sum;
  out->sum_squares_ = sum_squares;
  out->min_ = count ? min : 0;
  out->max_ = count ? max : 0;
  out->exact_ = std::move(exact);
  out->sketch_ = std::move(sketch);
  return true;
}

double DurationStats::stddev() const {
  if (count_ < 2) return 0;
  // n * sum(x^2) - sum(x)^2, exact in 128 bits where it fits (it does for all but durations of
  // decades), over n (n - 1); else in long double.
  __int128 product, num;
  if (!__builtin_mul_overflow(sum_squares_, static_cast<__int128>(count_), &product) &&
      !__builtin_sub_overflow(product, static_cast<__int128>(sum_) * sum_, &num)) {
    if (num <= 0) return 0;
    return std::sqrt(static_cast<double>(num) / (static_cast<double>(count_) * (count_ - 1)));
  }
  long double n = count_, mean = static_cast<long double>(sum_) / n;
  long double var = (static_cast<long double>(sum_squares_) - mean * sum_) / (n - 1);
  return var > 0 ? static_cast<double>(std::sqrt(var)) : 0;
}

double DurationStats::Quantile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  if (sketch_.empty()) {
    // numpy's linear method: position q (n - 1) between the sorted values.
    double pos = q * static_cast<double>(count_ - 1);
    int64_t lo_rank = static_cast<int64_t>(std::floor(pos));
    double frac = pos - static_cast<double>(lo_rank);
    int64_t seen = 0;
    double lo = 0;
    bool have_lo = false;
    for (const auto& [ns, n] : exact_) {
      if (!have_lo && lo_rank < seen + n) {
        lo = static_cast<double>(ns);
        have_lo = true;
        if (frac == 0 || lo_rank + 1 < seen + n) return lo;
      } else if (have_lo) {
        return lo + frac * (static_cast<double>(ns) - lo);
      }
      seen += n;
    }
    return lo;
  }
  int64_t rank = static_cast<int64_t>(std::floor(q * static_cast<double>(count_ - 1)));
  int64_t seen = 0;
  for (const auto& [b, n] : sketch_) {
    seen += n;
    if (rank < seen)
      return std::clamp(BucketValue(b), static_cast<double>(min_), static_cast<double>(max_));
  }
  return static_cast<double>(max_);
}

}  // namespace profana::job
