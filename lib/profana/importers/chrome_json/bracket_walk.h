// The string-aware bracket walk that the importer's scalar scans share (truncation repair, the
// error locators, the top-level scan of the streaming importer): every bracket outside strings,
// in order, where a backslash inside a string skips the character after it. The streaming
// importer's bulk scan does the same 64 bytes at a time (structure_scan.h).
#pragma once

#include <cstddef>
#include <string_view>

namespace profana::json {

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

}  // namespace profana::json
