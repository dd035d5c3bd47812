// Column<T>: one column of the model. It either owns its values (a std::vector, which is how
// every importer builds it) or views values that live elsewhere: the native reader hands the
// model the arrays of a mapped .pfa file this way, without copying them (the Trace keeps the
// mapping alive). Reads cost the same either way. Anything that writes to a viewed column first
// copies it into owned storage, so a view is never written through. Element writes go through
// owned() explicitly: a non-const operator[] would make every read in non-const code a copy.
//
// Two more forms keep fewer bytes than a value per row, for the columns TraceBuilder fills:
//  - Uniform: a column whose values are all one value keeps that value alone: what the model holds
//    for an arg no event of the trace wrote, or that the command will not read. A push of the same
//    value only counts it.
//  - Narrow (int64_t columns of ids, once NarrowWhenArray() is asked): 32-bit offsets from a base
//    near the first value, the smallest int64 (the model's "no id") as the largest offset. Ids
//    Kineto writes are counters that fit; the first that does not makes the column wide again.
// Reads by index or iterator see every row's value whatever the form (a uniform column's through a
// mask that costs an AND, a narrow one's through one test and an add). data() is an array of
// size() values only where is_array(), so code that takes the array asks first. Any write other
// than a push makes the values a plain array first.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <type_traits>
#include <vector>

namespace profana {

template <typename T>
class Column {
  static constexpr bool kNarrowable = std::is_same_v<T, int64_t>;

 public:
  using value_type = T;

  Column() = default;
  Column(size_t n, const T& value) : owned_(n, value) {}
  Column(std::initializer_list<T> values) : owned_(values) {}

  // Views `size` values at `data`; the caller keeps them alive and unchanged while any copy of
  // this column may read them.
  static Column View(const T* data, size_t size) {
    Column c;
    c.view_ = data;
    c.view_size_ = size;
    return c;
  }
  bool is_view() const { return view_ != nullptr; }

  // `size` values, every one `value`, kept as one.
  static Column Uniform(size_t size, const T& value) {
    Column c;
    c.owned_.assign(1, value);
    c.uniform_size_ = size;
    c.mask_ = 0;
    return c;
  }
  bool is_uniform() const { return mask_ == 0; }

  // An int64_t column of ids: when its values become an array, they are kept narrow while they fit.
  void NarrowWhenArray() {
    static_assert(kNarrowable, "only int64_t columns of ids are kept narrow");
    narrow_when_array_ = true;
  }
  bool is_narrow() const { return narrow_; }
  // Whether data() holds size() values.
  bool is_array() const { return !is_uniform() && !narrow_; }

  // Reads.
  size_t size() const {
    if (view_) return view_size_;
    if (is_uniform()) return uniform_size_;
    return narrow_ ? narrow_values_.size() : owned_.size();
  }
  bool empty() const { return size() == 0; }
  // The values as an array where is_array(); a uniform column's one value (see the file comment).
  const T* data() const { return view_ ? view_ : owned_.data(); }
  T operator[](size_t i) const {
    if constexpr (kNarrowable)
      if (narrow_) return Widen(narrow_values_[i]);
    return data()[i & mask_];
  }
  T front() const { return (*this)[0]; }
  T back() const { return (*this)[size() - 1]; }

  // Iterators read as operator[] does, so a loop over any form sees every row's value.
  class Iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = T;

    Iterator() = default;
    Iterator(const Column* column, size_t i) : column_(column), i_(i) {}
    T operator*() const { return (*column_)[i_]; }
    T operator[](difference_type n) const { return *(*this + n); }
    Iterator& operator++() { return ++i_, *this; }
    Iterator operator++(int) { return Iterator(column_, i_++); }
    Iterator& operator--() { return --i_, *this; }
    Iterator operator--(int) { return Iterator(column_, i_--); }
    Iterator& operator+=(difference_type n) { return i_ += static_cast<size_t>(n), *this; }
    Iterator& operator-=(difference_type n) { return i_ -= static_cast<size_t>(n), *this; }
    friend Iterator operator+(Iterator a, difference_type n) { return a += n; }
    friend Iterator operator+(difference_type n, Iterator a) { return a += n; }
    friend Iterator operator-(Iterator a, difference_type n) { return a -= n; }
    friend difference_type operator-(const Iterator& a, const Iterator& b) {
      return static_cast<difference_type>(a.i_ - b.i_);
    }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.i_ == b.i_; }
    friend bool operator!=(const Iterator& a, const Iterator& b) { return a.i_ != b.i_; }
    friend bool operator<(const Iterator& a, const Iterator& b) { return a.i_ < b.i_; }
    friend bool operator>(const Iterator& a, const Iterator& b) { return a.i_ > b.i_; }
    friend bool operator<=(const Iterator& a, const Iterator& b) { return a.i_ <= b.i_; }
    friend bool operator>=(const Iterator& a, const Iterator& b) { return a.i_ >= b.i_; }

   private:
    const Column* column_ = nullptr;
    size_t i_ = 0;
  };
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, size()); }
  bool operator==(const Column& o) const {
    return size() == o.size() && std::equal(begin(), end(), o.begin());
  }

  // Writes: each takes ownership first.
  std::vector<T>& owned() {
    if (view_) {
      owned_.assign(view_, view_ + view_size_);
      view_ = nullptr;
      view_size_ = 0;
    } else if (is_uniform()) {
      T value = owned_[0];
      owned_ = std::vector<T>();
      owned_.reserve(std::max(reserved_, uniform_size_));
      owned_.assign(uniform_size_, value);
      uniform_size_ = 0;
      mask_ = SIZE_MAX;
    } else if constexpr (kNarrowable) {
      if (narrow_) {
        owned_.reserve(std::max(reserved_, narrow_values_.size()));
        for (uint32_t v : narrow_values_) owned_.push_back(Widen(v));
        narrow_values_ = std::vector<uint32_t>();
        narrow_ = false;
      }
    }
    return owned_;
  }
  void push_back(const T& v) {
    if (is_uniform() && v == owned_[0]) {
      ++uniform_size_;
      return;
    }
    if constexpr (kNarrowable) {
      if (is_uniform() && narrow_when_array_) BecomeNarrow(v);
      uint32_t offset;
      if (narrow_ && Narrow(v, &offset)) {
        narrow_values_.push_back(offset);
        return;
      }
    }
    owned().push_back(v);
  }
  void resize(size_t n) { owned().resize(n); }
  // The room asked for is remembered: a uniform column takes it when its values become an array, a
  // narrow one when it widens.
  void reserve(size_t n) {
    reserved_ = std::max(reserved_, n);
    if (is_uniform()) return;
    if (narrow_)
      narrow_values_.reserve(n);
    else
      owned().reserve(n);
  }
  void assign(size_t n, const T& v) { Drop(), owned_.assign(n, v); }
  void clear() { Drop(), owned_.clear(); }

  // The values as the array they are kept in, for code that moves whole rows (a sort): f(vector)
  // with the owned values, or with the narrow offsets. A uniform column has none to move.
  template <typename F>
  void ForStoredValues(F f) {
    if (is_uniform()) return;
    if (narrow_)
      f(narrow_values_);
    else
      f(owned());
  }

 private:
  // The largest offset stands for the smallest int64 (the model's "no id").
  static constexpr uint32_t kLowest = UINT32_MAX;

  void Drop() {
    view_ = nullptr;
    view_size_ = 0;
    uniform_size_ = 0;
    mask_ = SIZE_MAX;
    narrow_ = false;
    narrow_values_ = std::vector<uint32_t>();
  }
  T Widen(uint32_t offset) const {
    if (offset == kLowest) return INT64_MIN;
    return static_cast<T>(static_cast<uint64_t>(base_) + offset);
  }
  bool Narrow(T v, uint32_t* offset) const {
    if (v == INT64_MIN) return *offset = kLowest, true;
    uint64_t d = static_cast<uint64_t>(v) - static_cast<uint64_t>(base_);
    // base_ + UINT32_MAX never passes INT64_MAX (BecomeNarrow), so d is v - base_ when small.
    if (v < base_ || d >= kLowest) return false;
    *offset = static_cast<uint32_t>(d);
    return true;
  }
  // From uniform to narrow at the first other value `next`: the base lies half the range below it
  // (ids written out of order still fit), and the rows so far take the uniform value's offset.
  void BecomeNarrow(T next) {
    T value = owned_[0];
    T anchor = next == INT64_MIN ? value : next;
    constexpr int64_t kHalf = int64_t{1} << 31;
    base_ = anchor < INT64_MIN + kHalf ? INT64_MIN + 1 : anchor - kHalf;
    base_ = std::min<int64_t>(base_, INT64_MAX - int64_t{UINT32_MAX});
    uint32_t offset;
    if (!Narrow(value, &offset)) return;  // the uniform value does not fit: a wide array
    narrow_values_.reserve(std::max(reserved_, uniform_size_ + 1));
    narrow_values_.assign(uniform_size_, offset);
    owned_ = std::vector<T>();
    uniform_size_ = 0;
    mask_ = SIZE_MAX;
    narrow_ = true;
  }

  std::vector<T> owned_;  // the values; a uniform column's one value
  const T* view_ = nullptr;
  size_t view_size_ = 0;
  size_t uniform_size_ = 0;
  size_t mask_ = SIZE_MAX;  // 0 for a uniform column: every index reads its one value
  size_t reserved_ = 0;     // the most reserve() asked, for when the column changes form
  bool narrow_when_array_ = false;
  bool narrow_ = false;
  int64_t base_ = 0;                     // a narrow column's values are base_ + offset
  std::vector<uint32_t> narrow_values_;  // a narrow column's offsets
};

}  // namespace profana
