#include "profana/importers/chrome_json/shapes_text.h"

namespace profana::json {
namespace {

// True when the list opened at raw[at] holds a list first: [[1, 2], [3]].
bool OpensNestedList(std::string_view raw, size_t at) {
  size_t next = raw.find_first_not_of(" \n\r\t", at + 1);
  return next != std::string_view::npos && raw[next] == '[';
}

// The index of the ']' closing the list opened at raw[at], or npos when it is not closed.
size_t SkipList(std::string_view raw, size_t at) {
  int depth = 0;
  for (size_t i = at; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '"') {
      for (++i; i < raw.size() && raw[i] != '"'; ++i)
        if (raw[i] == '\\') ++i;
      if (i >= raw.size()) return std::string_view::npos;
    } else if (c == '[') {
      ++depth;
    } else if (c == ']' && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

}  // namespace

bool RenderPythonShapes(std::string_view raw, std::string* out) {
  int depth = 0;
  bool need_separator = false;
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    switch (c) {
      case ' ':
      case '\n':
      case '\r':
      case '\t':
        break;
      case '[':
        if (need_separator) out->append(", ");
        if (depth == 1 && OpensNestedList(raw, i)) {
          // A TensorList argument: PyTorch keeps an empty shape for it (shapesForKinetoEvent).
          size_t end = SkipList(raw, i);
          if (end == std::string_view::npos) return false;
          out->append("[]");
          i = end;
          need_separator = true;
          continue;
        }
        out->push_back('[');
        ++depth;
        need_separator = false;
        break;
      case ']':
        if (--depth < 0) return false;
        out->push_back(']');
        need_separator = true;
        break;
      case ',':
        need_separator = true;
        break;
      case '"': {  // Python prints strings with single quotes
        if (need_separator) out->append(", ");
        out->push_back('\'');
        for (++i; i < raw.size() && raw[i] != '"'; ++i) {
          if (raw[i] == '\\' && i + 1 < raw.size()) ++i;
          out->push_back(raw[i]);
        }
        if (i >= raw.size()) return false;
        out->push_back('\'');
        need_separator = false;
        break;
      }
      default: {
        if (need_separator) out->append(", ");
        size_t start = i;
        while (i < raw.size() && raw[i] != ',' && raw[i] != ']' && raw[i] != ' ' && raw[i] != '\n')
          ++i;
        std::string_view token = raw.substr(start, i - start);
        --i;
        if (token == "true")
          out->append("True");
        else if (token == "false")
          out->append("False");
        else if (token == "null")
          out->append("None");
        else
          out->append(token);
        need_separator = false;
        break;
      }
    }
    if (depth == 0 && c == ']')
      return i + 1 == raw.size() ||
             raw.substr(i + 1).find_first_not_of(" \n\r\t") == std::string_view::npos;
  }
  return depth == 0 && !out->empty();
}

}  // namespace profana::json
