// DurationStats: count, sum, sum of squares, min and max of integer nanosecond durations, and
// their distribution for quantiles, built so that merging the stats of several ranks gives the
// same result in any order and any grouping (a commutative monoid):
//  * sums are exact integers (the sum of squares in 128 bits);
//  * the distribution is exact (each distinct duration with its count) up to kExactLimit distinct
//    values, then a log-bucket sketch with fixed bucket bounds (relative accuracy 1%, DDSketch's
//    scheme): bucket i holds (gamma^(i-1), gamma^i] with gamma = 1.01 / 0.99. A value's bucket
//    does not depend on what else was added, so the buckets of a merge are the sum of the parts'.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace profana::job {

class DurationStats {
 public:
  static constexpr size_t kExactLimit = 4096;

  // Both return false, leaving the stats as they were, when the count, the sum or the sum of
  // squares would not fit (stats merged from summary files can be any numbers; one trace's
  // always fit, model/trace_sums.h).
  bool Add(int64_t ns, int64_t times = 1);
  // Add of each value (sorted in place), once per distinct value with its count: the same stats
  // as adding them one by one in any order, since the final distribution depends only on which
  // values were added. In ascending order each insert follows the path of the one before, where
  // one by one they land anywhere in the maps. False if any Add was refused.
  bool AddAll(std::vector<int64_t>* values);
  bool Merge(const DurationStats& other);
  // Whether Merge(other) would succeed: the merged count, sum and sum of squares fit.
  bool CanMerge(const DurationStats& other) const;

  int64_t count() const { return count_; }
  int64_t sum() const { return sum_; }
  int64_t min() const { return count_ ? min_ : 0; }
  int64_t max() const { return count_ ? max_ : 0; }
  double mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0; }
  // Sample standard deviation (n - 1 in the denominator, as nsys stats prints it); 0 for n < 2.
  double stddev() const;
  // The q-quantile: exact values use linear interpolation between closest ranks (numpy's
  // default, so the median of an even count is the mean of the middle two); the sketch answers
  // within 1%.
  double Quantile(double q) const;
  bool exact() const { return sketch_.empty(); }

  // The state as stored in a summary file (job/summary_file.h), and back. Restore refuses (false)
  // a state that breaks the invariants: counts that do not add up, min > max, both maps in use.
  __int128 sum_squares() const { return sum_squares_; }
  const std::map<int64_t, int64_t>& exact_values() const { return exact_; }
  const std::map<int32_t, int64_t>& sketch_buckets() const { return sketch_; }
  static bool Restore(int64_t count, int64_t sum, __int128 sum_squares, int64_t min, int64_t max,
                      std::map<int64_t, int64_t> exact, std::map<int32_t, int64_t> sketch,
                      DurationStats* out);

 private:
  void ToSketch();
  static int32_t Bucket(int64_t ns);
  static double BucketValue(int32_t bucket);

  int64_t count_ = 0;
  int64_t sum_ = 0;
  __int128 sum_squares_ = 0;
  int64_t min_ = 0, max_ = 0;
  std::map<int64_t, int64_t> exact_;   // duration -> count, while exact
  std::map<int32_t, int64_t> sketch_;  // bucket -> count, once past kExactLimit
};

}  // namespace profana::job
