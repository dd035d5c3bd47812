#include "profana/importers/chrome_json/json_errors.h"

#include <cstdint>

#include "profana/base/json_brackets.h"

namespace profana::json {

size_t FirstInvalidUtf8(std::string_view text) {
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  size_t n = text.size();
  for (size_t i = 0; i < n;) {
    uint8_t c = s[i];
    size_t len;
    uint32_t min;  // smallest code point of this length: shorter encodings are invalid
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4, min = 0x10000;
    } else {
      return i;
    }
    if (i + len > n) return i;
    uint32_t cp = c & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += len;
  }
  return n;
}

size_t FirstTooDeep(std::string_view text, size_t max_depth) {
  size_t depth = 0, at = text.size();
  WalkBrackets(text, [&](size_t i, char c) {
    if (c == '[' || c == '{') {
      if (++depth <= max_depth) return true;
      at = i;
      return false;
    }
    if (depth > 0) --depth;
    return true;
  });
  return at;
}

size_t EndOfTopLevelValue(std::string_view text) {
  size_t depth = 0, end = std::string_view::npos;
  WalkBrackets(text, [&](size_t i, char c) {
    if (c == '[' || c == '{') {
      ++depth;
    } else if (depth > 0 && --depth == 0) {
      end = i + 1;
      return false;
    }
    return true;
  });
  return end;
}

}  // namespace profana::json
