// Typed 32-bit ids. An id is an index into one table of the model; the tag keeps a StringId from
// being passed where a StackId is meant. Id 0 is reserved where a table has a "none" row.
#pragma once

#include <cstdint>
#include <functional>

namespace profana {

template <typename Tag>
struct Id {
  uint32_t value = 0;
  constexpr Id() = default;
  constexpr explicit Id(uint32_t v) : value(v) {}
  constexpr bool operator==(Id o) const { return value == o.value; }
  constexpr bool operator!=(Id o) const { return value != o.value; }
  constexpr bool operator<(Id o) const { return value < o.value; }
};

using StringId = Id<struct StringTag>;  // 0 = ""
using StackId = Id<struct StackTag>;    // 0 = empty stack
using ThreadId = Id<struct ThreadTag>;  // index into Trace::threads

}  // namespace profana

template <typename Tag>
struct std::hash<profana::Id<Tag>> {
  size_t operator()(profana::Id<Tag> id) const noexcept { return std::hash<uint32_t>()(id.value); }
};
