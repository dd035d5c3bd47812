#include "profana/importers/chrome_json/shapes_text.h"

#include "profana/base/json_string.h"

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
  const size_t begin = out->size();
  int depth = 0;
  // What may come next: a list's first value or its end (after '['), a value (after ','), or a
  // separator: ',' or the end of the list (after a value). The parser took the array as raw text
  // without checking it, so it is checked here, but for a TensorList's shapes, which are skipped.
  enum class Next { kFirstOrEnd, kValue, kSeparator } next = Next::kValue;
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (depth == 0 && out->size() > begin) return false;  // anything after the list
    if (next == Next::kSeparator) {
      if (c == ',') {
        next = Next::kValue;
        continue;
      }
      if (c != ']') return false;
    } else if (c == ']' ? next == Next::kValue : c == ',') {
      return false;  // [1, ] or [, 1]
    }
    if (next == Next::kValue && out->size() > begin) out->append(", ");
    switch (c) {
      case '[':
        if (depth == 1 && OpensNestedList(raw, i)) {
          // A TensorList argument: PyTorch keeps an empty shape for it (shapesForKinetoEvent).
          size_t end = SkipList(raw, i);
          if (end == std::string_view::npos) return false;
          out->append("[]");
          i = end;
          next = Next::kSeparator;
          continue;
        }
        out->push_back('[');
        ++depth;
        next = Next::kFirstOrEnd;
        break;
      case ']':
        if (--depth < 0) return false;
        out->push_back(']');
        next = Next::kSeparator;
        break;
      case '"': {  // Python prints strings with single quotes
        out->push_back('\'');
        for (++i; i < raw.size() && raw[i] != '"'; ++i) {
          if (raw[i] == '\\' && i + 1 < raw.size()) ++i;
          out->push_back(raw[i]);
        }
        if (i >= raw.size()) return false;
        out->push_back('\'');
        next = Next::kSeparator;
        break;
      }
      default: {
        size_t start = i;
        while (i < raw.size() && raw[i] != ',' && raw[i] != ']' && raw[i] != ' ' &&
               raw[i] != '\n' && raw[i] != '\r' && raw[i] != '\t')
          ++i;
        std::string_view token = raw.substr(start, i - start);
        --i;
        if (token == "true")
          out->append("True");
        else if (token == "false")
          out->append("False");
        else if (token == "null")
          out->append("None");
        else if (IsJsonNumber(token))
          out->append(token);
        else
          return false;
        next = Next::kSeparator;
        break;
      }
    }
  }
  return depth == 0 && out->size() > begin;
}

}  // namespace profana::json
