// The string-aware bracket walk of JSON text that every scalar scan shares (the Chrome-JSON
// importer's truncation repair and error locators, where a budget's object ends): every bracket
// outside strings, in order, where a backslash inside a string skips the character after it. The
// streaming importer's bulk scan does the same 64 bytes at a time (structure_scan.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace profana {

// Calls visit(i, c) for each '{', '[', '}' or ']' outside strings until it returns false.
// Returns true when visit stopped the walk; *ends_in_string (when given) says whether the text
// ends inside a string.
template <typename Visit>
bool WalkBrackets(std::string_view text, Visit visit, bool* ends_in_string = nullptr) {
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[' || c == '}' || c == ']') {
      if (!visit(i, c)) return true;
    }
  }
  if (ends_in_string) *ends_in_string = in_string;
  return false;
}

// One past the bracket that closes the object or array opening at text[open]; npos when it never
// closes (a parser then says what is wrong).
inline size_t EndOfJsonValue(std::string_view text, size_t open) {
  int64_t depth = 0;
  size_t end = std::string_view::npos;
  WalkBrackets(text.substr(open), [&](size_t i, char c) {
    depth += c == '{' || c == '[' ? 1 : -1;
    if (depth > 0) return true;
    end = open + i + 1;
    return false;
  });
  return end;
}

}  // namespace profana
