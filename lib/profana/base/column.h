// Column<T>: one column of the model. It either owns its values (a std::vector, which is how
// every importer builds it) or views values that live elsewhere: the native reader hands the
// model the arrays of a mapped .pfa file this way, without copying them (the Trace keeps the
// mapping alive). Reads cost the same either way. Anything that writes to a viewed column first
// copies it into owned storage, so a view is never written through. Element writes go through
// owned() explicitly: a non-const operator[] would make every read in non-const code a copy.
//
// A third form keeps a column whose values are all one value as that value alone (Uniform): what
// the model holds for an arg no event of the trace wrote, or that the command will not read
// (TraceBuilder). Reads by index or iterator see the value at every row, through a mask that
// costs an AND; data() is an array of size() values only where !is_uniform(), so code that takes
// the array asks first. A push of the same value only counts it; another value, or any other write,
// makes the values an array first.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <vector>

namespace profana {

template <typename T>
class Column {
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

  // Reads.
  size_t size() const { return view_ ? view_size_ : is_uniform() ? uniform_size_ : owned_.size(); }
  bool empty() const { return size() == 0; }
  // The values as an array; for a uniform column, its one value (see the file comment).
  const T* data() const { return view_ ? view_ : owned_.data(); }
  const T& operator[](size_t i) const { return data()[i & mask_]; }
  const T& front() const { return (*this)[0]; }
  const T& back() const { return (*this)[size() - 1]; }
  // Iterators read as operator[] does, so a loop over a uniform column sees its one value.
  class Iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;

    Iterator() = default;
    Iterator(const T* values, size_t mask, size_t i) : values_(values), mask_(mask), i_(i) {}
    reference operator*() const { return values_[i_ & mask_]; }
    pointer operator->() const { return &**this; }
    reference operator[](difference_type n) const { return *(*this + n); }
    Iterator& operator++() { return ++i_, *this; }
    Iterator operator++(int) { return Iterator(values_, mask_, i_++); }
    Iterator& operator--() { return --i_, *this; }
    Iterator operator--(int) { return Iterator(values_, mask_, i_--); }
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
    const T* values_ = nullptr;
    size_t mask_ = SIZE_MAX;
    size_t i_ = 0;
  };
  Iterator begin() const { return Iterator(data(), mask_, 0); }
  Iterator end() const { return Iterator(data(), mask_, size()); }
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
    }
    return owned_;
  }
  void push_back(const T& v) {
    if (is_uniform() && v == owned_[0]) {
      ++uniform_size_;
      return;
    }
    owned().push_back(v);
  }
  void resize(size_t n) { owned().resize(n); }
  // A uniform column keeps the room asked for until its values become an array.
  void reserve(size_t n) { is_uniform() ? void(reserved_ = n) : owned().reserve(n); }
  void assign(size_t n, const T& v) { Drop(), owned_.assign(n, v); }
  void clear() { Drop(), owned_.clear(); }

 private:
  void Drop() {
    view_ = nullptr;
    view_size_ = 0;
    uniform_size_ = 0;
    mask_ = SIZE_MAX;
  }

  std::vector<T> owned_;  // the values; a uniform column's one value
  const T* view_ = nullptr;
  size_t view_size_ = 0;
  size_t uniform_size_ = 0;
  size_t mask_ = SIZE_MAX;  // 0 for a uniform column: every index reads its one value
  size_t reserved_ = 0;     // a uniform column's reserve(), for when it becomes an array
};

}  // namespace profana
