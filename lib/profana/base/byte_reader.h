// ByteReader: a bounds-checked little-endian cursor over bytes in memory, with a sticky error
// (LLVM's DataExtractor::Cursor). Read a record's fields, then check ok() once: after the first
// failure every read returns zero and the position of that failure is kept for the message.
// Binary readers use it so that no byte past the end is ever touched, whatever the input says.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace profana {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "ByteReader copies little-endian arrays verbatim; a big-endian port must byte-swap");

class ByteReader {
 public:
  ByteReader(const char* data, size_t size) : data_(data), size_(size) {}
  explicit ByteReader(std::string_view bytes) : ByteReader(bytes.data(), bytes.size()) {}

  bool ok() const { return !failed_; }
  size_t offset() const { return offset_; }
  size_t remaining() const { return failed_ ? 0 : size_ - offset_; }
  // Where the first failed read started (valid when !ok()).
  size_t error_offset() const { return error_offset_; }

  uint8_t U8() { return Fixed<uint8_t>(); }
  uint32_t U32() { return Fixed<uint32_t>(); }
  uint64_t U64() { return Fixed<uint64_t>(); }
  int64_t I64() { return Fixed<int64_t>(); }

  // n bytes as a view into the input; empty on failure.
  std::string_view Bytes(uint64_t n) {
    if (!Take(n)) return {};
    return {data_ + offset_ - n, static_cast<size_t>(n)};
  }
  // A u32 length, then that many bytes.
  std::string_view String() { return Bytes(U32()); }
  bool Skip(uint64_t n) { return Take(n); }
  // Marks the reader failed at the current offset (a value read fine but makes no sense).
  bool Fail() {
    if (!failed_) error_offset_ = offset_;
    failed_ = true;
    return false;
  }

 private:
  bool Take(uint64_t n) {
    if (failed_ || n > size_ - offset_) return Fail();
    offset_ += n;
    return true;
  }
  template <typename T>
  T Fixed() {
    if (!Take(sizeof(T))) return 0;
    T v;
    std::memcpy(&v, data_ + offset_ - sizeof(T), sizeof(T));
    return v;
  }

  const char* data_;
  size_t size_;
  size_t offset_ = 0;
  size_t error_offset_ = 0;
  bool failed_ = false;
};

}  // namespace profana
