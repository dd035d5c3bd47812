// StringPool interns strings: each distinct string is stored once in a block arena and named by a
// 32-bit StringId (0 is the empty string). string_views returned by Get() stay valid for the pool's
// life. Importers intern every string as soon as they read it, so the model never holds a
// std::string per event.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "profana/base/ids.h"

namespace profana {

struct Trace;

class StringPool {
 public:
  StringPool();
  StringPool(StringPool&&) = default;
  StringPool& operator=(StringPool&&) = default;
  StringPool& operator=(const StringPool&) = delete;

  // A deep copy with the same ids, in one block. Explicit, as copying a pool is rarely needed.
  StringPool Clone() const;

  StringId Intern(std::string_view s);
  // The id of s if it was interned, else nothing (StringId 0 for "").
  bool Find(std::string_view s, StringId* id) const;
  std::string_view Get(StringId id) const { return views_[id.value]; }
  size_t size() const { return views_.size(); }
  size_t bytes() const { return arena_bytes_; }

 private:
  // Trace::Clone copies every field of a trace through its defaulted (private) copy constructor,
  // which needs this one: a field added to Trace later is then copied without anyone listing it.
  friend struct Trace;
  StringPool(const StringPool& other) : StringPool(other.Clone()) {}

  static uint64_t Hash(std::string_view s);
  void Grow();
  const char* Store(std::string_view s);

  std::vector<std::string_view> views_;  // id -> text
  std::vector<uint64_t> hashes_;         // id -> hash (rehash without rehashing text)
  std::vector<uint32_t> slots_;          // open addressing; 0 = empty, else id + 1
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  size_t arena_bytes_ = 0;
};

}  // namespace profana
