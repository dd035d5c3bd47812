// SparseRows<V>: a value for each row of a long list where most rows have none (V{}), kept for
// the rows that have one. A bit per row says which; a count per 64 rows, plus the bits below a
// row in its word, finds its value. Reads cost a few instructions and no search; the list costs
// 0.19 bytes a row plus the values. The bytes of [memory] records under each event, and the CUDA
// totals of the CPU events with device time under them, are this way: a fifth to a third of a
// trace's events have one, and a value per event would be 16 bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace profana {

template <typename V>
class SparseRows {
 public:
  SparseRows() = default;
  // `rows` rows, none with a value yet.
  explicit SparseRows(size_t rows) : words_((rows + 63) / 64, 0) {}

  bool empty() const { return values_.empty(); }
  size_t count() const { return values_.size(); }

  // Room for `values` values (Append's), when their number is known or bounded beforehand.
  void Reserve(size_t values) { values_.reserve(values); }
  // Either build by Append, in rising row order, then Seal...
  void Append(size_t row, const V& value) {
    words_[row >> 6] |= uint64_t{1} << (row & 63);
    values_.push_back(value);
  }
  // ...or Mark the rows, in any order, then Seal, then write each marked row's value by At.
  void Mark(size_t row) { words_[row >> 6] |= uint64_t{1} << (row & 63); }
  bool Marked(size_t row) const { return (words_[row >> 6] >> (row & 63)) & 1; }
  // After the last Append or Mark: the counts, and room for the marked rows' values.
  void Seal() {
    ranks_.resize(words_.size());
    uint32_t below = 0;
    for (size_t w = 0; w < words_.size(); ++w) {
      ranks_[w] = below;
      below += static_cast<uint32_t>(__builtin_popcountll(words_[w]));
    }
    values_.resize(below);
  }
  V& At(size_t row) { return values_[Rank(row)]; }  // a marked row's, after Seal

  // Any row's value: V{} where none was given (and in a list never built).
  V operator[](size_t row) const {
    size_t w = row >> 6;
    if (w >= ranks_.size()) return V{};
    uint64_t bit = uint64_t{1} << (row & 63);
    if (!(words_[w] & bit)) return V{};
    return values_[ranks_[w] + static_cast<uint32_t>(__builtin_popcountll(words_[w] & (bit - 1)))];
  }

 private:
  size_t Rank(size_t row) const {
    size_t w = row >> 6;
    uint64_t below = words_[w] & ((uint64_t{1} << (row & 63)) - 1);
    return ranks_[w] + static_cast<size_t>(__builtin_popcountll(below));
  }

  std::vector<uint64_t> words_;  // bit r: row r has a value
  std::vector<uint32_t> ranks_;  // values in the words before each
  std::vector<V> values_;        // in row order
};

}  // namespace profana
