#include "profana/importers/chrome_json/truncation.h"

#include <vector>

namespace profana::json {

TruncationRepair FindTruncationRepair(std::string_view text) {
  TruncationRepair repair;
  std::vector<char> open;  // '{' or '['
  std::string closers_at_cut;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '{': case '[': open.push_back(c); break;
      case '}': case ']':
        if (open.empty()) return repair;  // unbalanced, not truncated: let the parser say so
        open.pop_back();
        // The end of an element of a top-level array (the events, or a bare array) is a safe
        // place to cut: everything before it is whole events.
        if (!open.empty() && open.back() == '[' && open.size() <= 2) {
          repair.cut = i + 1;
          closers_at_cut.clear();
          for (auto it = open.rbegin(); it != open.rend(); ++it) closers_at_cut += *it == '[' ? ']' : '}';
        }
        break;
      default: break;
    }
  }
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
