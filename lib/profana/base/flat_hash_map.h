// FlatHashMap: open addressing with linear probing over flat arrays, for the per-event lookups of
// the passes (correlation id -> launch, (sequence nr, thread) -> stack). std::unordered_map
// allocates a node per insert; at millions of events that allocation dominated BuildFunctionEvents.
// Insert-only (no erase), which is all the passes need.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace profana {

inline uint64_t MixHash64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

template <typename K>
struct FlatHash {
  uint64_t operator()(const K& k) const { return MixHash64(static_cast<uint64_t>(k)); }
};

template <typename K, typename V, typename Hash = FlatHash<K>>
class FlatHashMap {
 public:
  explicit FlatHashMap(size_t expected = 0) { Rehash(Capacity(expected)); }

  // Inserts (k, v) unless k is present; returns the stored value and whether it was inserted.
  std::pair<V*, bool> try_emplace(const K& k, const V& v) {
    if ((size_ + 1) * 2 > keys_.size()) Rehash(keys_.size() * 2);
    size_t i = Slot(k);
    if (used_[i]) return {&values_[i], false};
    used_[i] = 1;
    keys_[i] = k;
    values_[i] = v;
    ++size_;
    return {&values_[i], true};
  }
  const V* find(const K& k) const {
    size_t i = Slot(k);
    return used_[i] ? &values_[i] : nullptr;
  }
  V* find(const K& k) {
    size_t i = Slot(k);
    return used_[i] ? &values_[i] : nullptr;
  }
  size_t size() const { return size_; }

 private:
  static size_t Capacity(size_t expected) {
    size_t c = 16;
    while (c < expected * 2) c *= 2;
    return c;
  }
  size_t Slot(const K& k) const {
    size_t mask = keys_.size() - 1;
    size_t i = Hash()(k) & mask;
    while (used_[i] && !(keys_[i] == k)) i = (i + 1) & mask;
    return i;
  }
  void Rehash(size_t capacity) {
    std::vector<K> keys(capacity);
    std::vector<V> values(capacity);
    std::vector<uint8_t> used(capacity, 0);
    keys.swap(keys_);
    values.swap(values_);
    used.swap(used_);
    size_ = 0;
    for (size_t i = 0; i < used.size(); ++i)
      if (used[i]) try_emplace(keys[i], values[i]);
  }

  std::vector<K> keys_;
  std::vector<V> values_;
  std::vector<uint8_t> used_;
  size_t size_ = 0;
};

}  // namespace profana
