#include "profana/reporters/markup_text.h"

#include <algorithm>

#include "profana/base/terminal_text.h"
#include "profana/base/utf8.h"

namespace profana::report {

std::string MarkupText(std::string_view s) {
  std::string valid;
  AppendValidUtf8(s, &valid);
  std::string out;
  for (char c : Printable(valid)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

std::string MarkdownCell(std::string_view s) {
  std::string out;
  for (char c : Printable(s)) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string MarkdownCode(std::string_view s) {
  std::string text = Printable(s);
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(longest + 1, '`');
  const char* pad = !text.empty() && (text.front() == '`' || text.back() == '`') ? " " : "";
  return fence + pad + text + pad + fence;
}

}  // namespace profana::report
