// Column<T>: one column of the model. It either owns its values (a std::vector, which is how
// every importer builds it) or views values that live elsewhere: the native reader hands the
// model the arrays of a mapped .pfa file this way, without copying them (the Trace keeps the
// mapping alive). Reads cost the same either way. Anything that writes to a viewed column first
// copies it into owned storage, so a view is never written through. Element writes go through
// owned() explicitly: a non-const operator[] would make every read in non-const code a copy.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
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

  // Reads.
  size_t size() const { return view_ ? view_size_ : owned_.size(); }
  bool empty() const { return size() == 0; }
  const T* data() const { return view_ ? view_ : owned_.data(); }
  const T& operator[](size_t i) const { return data()[i]; }
  const T& front() const { return data()[0]; }
  const T& back() const { return data()[size() - 1]; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  bool operator==(const Column& o) const {
    return size() == o.size() && std::equal(begin(), end(), o.begin());
  }

  // Writes: each takes ownership first.
  std::vector<T>& owned() {
    if (view_) {
      owned_.assign(view_, view_ + view_size_);
      view_ = nullptr;
      view_size_ = 0;
    }
    return owned_;
  }
  void push_back(const T& v) { owned().push_back(v); }
  void resize(size_t n) { owned().resize(n); }
  void reserve(size_t n) { owned().reserve(n); }
  void assign(size_t n, const T& v) { Drop(), owned_.assign(n, v); }
  void clear() { Drop(), owned_.clear(); }

 private:
  void Drop() {
    view_ = nullptr;
    view_size_ = 0;
  }

  std::vector<T> owned_;
  const T* view_ = nullptr;
  size_t view_size_ = 0;
};

}  // namespace profana
