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

void DurationStats::Add(int64_t ns, int64_t times) {
  if (times <= 0) return;
  if (count_ == 0) {
    min_ = max_ = ns;
  } else {
    min_ = std::min(min_, ns);
    max_ = std::max(max_, ns);
  }
  count_ += times;
  sum_ += ns * times;
  sum_squares_ += static_cast<__int128>(ns) * ns * times;
  if (sketch_.empty()) {
    exact_[ns] += times;
    if (exact_.size() > kExactLimit) ToSketch();
  } else {
    sketch_[Bucket(ns)] += times;
  }
}

void DurationStats::ToSketch() {
  for (const auto& [ns, n] : exact_) sketch_[Bucket(ns)] += n;
  exact_.clear();
}

void DurationStats::Merge(const DurationStats& o) {
  if (o.count_ == 0) return;
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
  if (sketch_.empty() && o.sketch_.empty()) {
    for (const auto& [ns, n] : o.exact_) exact_[ns] += n;
    if (exact_.size() > kExactLimit) ToSketch();
    return;
  }
  if (sketch_.empty()) ToSketch();
  for (const auto& [ns, n] : o.exact_) sketch_[Bucket(ns)] += n;
  for (const auto& [b, n] : o.sketch_) sketch_[b] += n;
}

double DurationStats::stddev() const {
  if (count_ < 2) return 0;
  // n * sum(x^2) - sum(x)^2, exact in 128 bits, over n (n - 1).
  __int128 num = sum_squares_ * count_ - static_cast<__int128>(sum_) * sum_;
  if (num <= 0) return 0;
  return std::sqrt(static_cast<double>(num) / (static_cast<double>(count_) * (count_ - 1)));
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
