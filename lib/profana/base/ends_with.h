// Whether a text ends with a tail (C++17's string_view has no ends_with): file names told by
// their extension.
#pragma once

#include <string_view>

namespace profana {

inline bool EndsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

}  // namespace profana
