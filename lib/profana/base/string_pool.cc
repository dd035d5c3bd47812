#include "profana/base/string_pool.h"

#include <algorithm>
#include <cstring>

namespace profana {
namespace {
// Blocks grow from kFirstBlock to kBlockSize, doubling: a pool of a few names (a rank's summary
// in a job keeps one per rank) holds a few KiB, not a whole 1 MiB block.
constexpr size_t kFirstBlock = 4 << 10;
constexpr size_t kBlockSize = 1 << 20;
}  // namespace

StringPool::StringPool() {
  views_.emplace_back();
  hashes_.push_back(Hash({}));
  slots_.assign(1024, 0);
}

StringPool StringPool::Clone() const {
  StringPool copy;
  copy.hashes_ = hashes_;
  copy.slots_ = slots_;  // the same hashes in the same table size: the same slots
  copy.views_.assign(views_.size(), std::string_view());
  if (arena_bytes_ > 0) {
    copy.blocks_.emplace_back(new char[arena_bytes_]);
    copy.block_size_ = arena_bytes_;
  }
  for (size_t id = 1; id < views_.size(); ++id)
    copy.views_[id] = {copy.Store(views_[id]), views_[id].size()};
  return copy;
}

uint64_t StringPool::Hash(std::string_view s) {
  // FNV-1a over 8-byte words, then a murmur finaliser: cheap and good enough for names.
  uint64_t h = 0xcbf29ce484222325ull ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
  }
  for (; i < s.size(); ++i) h = (h ^ static_cast<unsigned char>(s[i])) * 0x100000001b3ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

bool StringPool::Find(std::string_view s, StringId* id) const {
  if (s.empty()) {
    *id = StringId(0);
    return true;
  }
  uint64_t h = Hash(s);
  size_t mask = slots_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    uint32_t slot = slots_[i];
    if (slot == 0) return false;
    if (hashes_[slot - 1] == h && views_[slot - 1] == s) {
      *id = StringId(slot - 1);
      return true;
    }
  }
}

StringId StringPool::Intern(std::string_view s) {
  if (s.empty()) return StringId(0);
  uint64_t h = Hash(s);
  size_t mask = slots_.size() - 1;
  size_t i = h & mask;
  for (;; i = (i + 1) & mask) {
    uint32_t slot = slots_[i];
    if (slot == 0) break;
    if (hashes_[slot - 1] == h && views_[slot - 1] == s) return StringId(slot - 1);
  }
  uint32_t id = static_cast<uint32_t>(views_.size());
  views_.emplace_back(Store(s), s.size());
  hashes_.push_back(h);
  slots_[i] = id + 1;
  if (views_.size() * 2 > slots_.size()) Grow();
  return StringId(id);
}

void StringPool::Grow() {
  std::vector<uint32_t> slots(slots_.size() * 2, 0);
  size_t mask = slots.size() - 1;
  for (uint32_t id = 1; id < views_.size(); ++id) {
    size_t i = hashes_[id] & mask;
    while (slots[i] != 0) i = (i + 1) & mask;
    slots[i] = id + 1;
  }
  slots_.swap(slots);
}

const char* StringPool::Store(std::string_view s) {
  if (block_used_ + s.size() > block_size_) {
    size_t next = block_size_ == 0 ? kFirstBlock : std::min(block_size_ * 2, kBlockSize);
    size_t size = s.size() > next / 4 ? std::max(s.size(), next) : next;
    blocks_.emplace_back(new char[size]);
    block_size_ = size;
    block_used_ = 0;
  }
  char* dst = blocks_.back().get() + block_used_;
  std::memcpy(dst, s.data(), s.size());
  block_used_ += s.size();
  arena_bytes_ += s.size();
  return dst;
}

}  // namespace profana
