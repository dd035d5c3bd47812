// Typed 32-bit ids. An id is an index into one table of the model (or of a pass's result); the tag
// keeps a StringId from being passed where a StackId is meant, and an index into the trace's
// events from being used as one into the function-event list. Id 0 is reserved where a table has
// a "none" row; tables without one say "no row" with None().
#pragma once

#include <cstdint>
#include <functional>
#include <type_traits>

namespace profana {

template <typename Tag>
struct Id {
  uint32_t value = 0;
  constexpr Id() = default;
  constexpr explicit Id(uint32_t v) : value(v) {}
  constexpr bool operator==(Id o) const { return value == o.value; }
  constexpr bool operator!=(Id o) const { return value != o.value; }
  constexpr bool operator<(Id o) const { return value < o.value; }

  // No row, for tables without a reserved row 0. Its bits are those of int32_t -1, which is how
  // the native format stores a FunctionEvent without a parent.
  static constexpr Id None() { return Id(UINT32_MAX); }
  constexpr bool valid() const { return value != UINT32_MAX; }
};

using StringId = Id<struct StringTag>;    // 0 = ""
using StackId = Id<struct StackTag>;      // 0 = empty stack
using ThreadId = Id<struct ThreadTag>;    // index into Trace::threads
using EventId = Id<struct EventTag>;      // index into Trace::events
using FnEventId = Id<struct FnEventTag>;  // index into a passes::FunctionEventList

// Columns of ids are stored and mapped as their 32-bit values.
static_assert(sizeof(EventId) == 4 && std::is_trivially_copyable_v<EventId>);

}  // namespace profana

template <typename Tag>
struct std::hash<profana::Id<Tag>> {
  size_t operator()(profana::Id<Tag> id) const noexcept { return std::hash<uint32_t>()(id.value); }
};
