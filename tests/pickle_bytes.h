// Builds pickles byte by byte for the tests (no binary fixture is committed): the opcodes
// Python's pickler writes at protocol 4, and any raw byte for hostile ones.
#pragma once

#include <cstdint>
#include <string>

namespace profana::test {

class PickleBytes {
 public:
  explicit PickleBytes(int protocol = 4) { Byte(0x80).Byte(protocol); }

  PickleBytes& Byte(int b) {
    bytes_.push_back(static_cast<char>(b));
    return *this;
  }
  PickleBytes& Raw(const std::string& s) {
    bytes_ += s;
    return *this;
  }
  PickleBytes& Le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) Byte(static_cast<int>((v >> (8 * i)) & 0xff));
    return *this;
  }
  PickleBytes& Mark() { return Byte('('); }
  PickleBytes& Stop() { return Byte('.'); }
  PickleBytes& None() { return Byte('N'); }
  PickleBytes& Bool(bool b) { return Byte(b ? 0x88 : 0x89); }
  // As the pickler writes ints: BININT1, BININT2, BININT, else LONG1.
  PickleBytes& Int(int64_t v) {
    if (v >= 0 && v < 256) return Byte('K').Le(static_cast<uint64_t>(v), 1);
    if (v >= 0 && v < 65536) return Byte('M').Le(static_cast<uint64_t>(v), 2);
    if (v >= INT32_MIN && v <= INT32_MAX) return Byte('J').Le(static_cast<uint32_t>(v), 4);
    int n = 1;
    while (n < 8 && !(v >= -(int64_t{1} << (8 * n - 1)) && v < (int64_t{1} << (8 * n - 1)))) ++n;
    return Byte(0x8a).Byte(n).Le(static_cast<uint64_t>(v), n);
  }
  PickleBytes& Float(double d) {
    uint64_t bits;
    static_assert(sizeof bits == sizeof d);
    __builtin_memcpy(&bits, &d, sizeof d);
    Byte('G');
    for (int i = 7; i >= 0; --i) Byte(static_cast<int>((bits >> (8 * i)) & 0xff));
    return *this;
  }
  PickleBytes& Str(const std::string& s) {
    if (s.size() < 256) return Byte(0x8c).Le(s.size(), 1).Raw(s);
    return Byte('X').Le(s.size(), 4).Raw(s);
  }
  PickleBytes& Bytes(const std::string& s) { return Byte('C').Le(s.size(), 1).Raw(s); }
  PickleBytes& EmptyDict() { return Byte('}'); }
  PickleBytes& EmptyList() { return Byte(']'); }
  PickleBytes& EmptyTuple() { return Byte(')'); }
  PickleBytes& Memoize() { return Byte(0x94); }
  PickleBytes& Get(uint32_t i) { return i < 256 ? Byte('h').Le(i, 1) : Byte('j').Le(i, 4); }
  PickleBytes& Append() { return Byte('a'); }
  PickleBytes& Appends() { return Byte('e'); }
  PickleBytes& SetItem() { return Byte('s'); }
  PickleBytes& SetItems() { return Byte('u'); }
  PickleBytes& Tuple2() { return Byte(0x86); }
  // key: value for a dict on the stack (SETITEM).
  PickleBytes& Key(const std::string& k) { return Str(k); }

  const std::string& str() const { return bytes_; }
  size_t size() const { return bytes_.size(); }

 private:
  std::string bytes_;
};

}  // namespace profana::test
