#include "profana/importers/chrome_json/truncation.h"

#include <vector>

#include "profana/base/json_brackets.h"

namespace profana::json {

TruncationRepair FindTruncationRepair(std::string_view text) {
  TruncationRepair repair;
  std::vector<char> open;  // '{' or '['
  std::string closers_at_cut;
  bool in_string = false;
  bool unbalanced = WalkBrackets(
      text,
      [&](size_t i, char c) {
        if (c == '{' || c == '[') {
          open.push_back(c);
          return true;
        }
        if (open.empty()) return false;  // unbalanced, not truncated: let the parser say so
        open.pop_back();
        // The end of an element of a top-level array (the events, or a bare array) is a safe
        // place to cut: everything before it is whole events.
        if (!open.empty() && open.back() == '[' && open.size() <= 2) {
          repair.cut = i + 1;
          closers_at_cut.clear();
          for (auto it = open.rbegin(); it != open.rend(); ++it)
            closers_at_cut += *it == '[' ? ']' : '}';
        }
        return true;
      },
      &in_string);
  if (unbalanced) return repair;
  if (!in_string && open.empty()) return repair;
  repair.truncated = true;
  repair.closers = closers_at_cut;
  return repair;
}

void LineAndColumn(std::string_view text, size_t offset, size_t* line, size_t* column) {
  *line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++*line;
      line_start = i + 1;
    }
  }
  *column = offset - line_start + 1;
}

}  // namespace profana::json
