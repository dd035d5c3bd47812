// IdIndex: id -> the first position that has it, for the 64-bit ids traces join on (correlation,
// External id). Those are mostly dense counters, so a vector indexed by (id - min) serves them
// with sequential memory access; sparse ids fall back to a flat hash map.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "profana/base/flat_hash_map.h"

namespace profana {

class IdIndex {
 public:
  // get(i, &id) says whether position i (below n) has an id, and which.
  template <typename Get>
  void Build(size_t n, Get get) {
    int64_t lo = INT64_MAX, hi = INT64_MIN, id;
    size_t count = 0;
    for (uint32_t i = 0; i < n; ++i) {
      if (!get(i, &id)) continue;
      lo = std::min(lo, id);
      hi = std::max(hi, id);
      ++count;
    }
    if (count == 0) return;
    dense_ = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) < 4 * count + 1024;
    lo_ = lo;
    if (dense_)
      table_.assign(static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1, UINT32_MAX);
    for (uint32_t i = 0; i < n; ++i) {
      if (!get(i, &id)) continue;
      if (dense_) {
        uint32_t& slot = table_[static_cast<uint64_t>(id) - static_cast<uint64_t>(lo)];
        if (slot == UINT32_MAX) slot = i;
      } else {
        sparse_.try_emplace(id, i);
      }
    }
  }
  // The first position with `id`, or null.
  const uint32_t* find(int64_t id) const {
    if (!dense_) return sparse_.find(id);
    uint64_t at = static_cast<uint64_t>(id) - static_cast<uint64_t>(lo_);
    return at < table_.size() && table_[at] != UINT32_MAX ? &table_[at] : nullptr;
  }

 private:
  bool dense_ = false;
  int64_t lo_ = 0;
  std::vector<uint32_t> table_;
  FlatHashMap<int64_t, uint32_t> sparse_;
};

}  // namespace profana
