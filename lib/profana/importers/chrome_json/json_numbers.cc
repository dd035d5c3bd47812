#include "profana/importers/chrome_json/json_numbers.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace profana::json {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

bool ParseViaDouble(std::string_view text, double scale, int64_t* out) {
  std::string copy(text);
  char* end = nullptr;
  double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(v)) return false;
  double scaled = std::round(v * scale);
  if (!(scaled >= -9.2e18 && scaled <= 9.2e18)) return false;
  *out = static_cast<int64_t>(scaled);
  return true;
}

// Reads an optional '-' and a run of digits (at least one) into *magnitude. False on overflow.
bool ParseSignAndDigits(std::string_view text, size_t* i, bool* negative, uint64_t* magnitude) {
  *negative = *i < text.size() && text[*i] == '-';
  if (*negative) ++*i;
  size_t start = *i;
  uint64_t v = 0;
  for (; *i < text.size() && text[*i] >= '0' && text[*i] <= '9'; ++*i) {
    if (__builtin_mul_overflow(v, 10u, &v) ||
        __builtin_add_overflow(v, static_cast<uint64_t>(text[*i] - '0'), &v))
      return false;
  }
  *magnitude = v;
  return *i > start;
}

}  // namespace

bool ParseMicrosToNanos(std::string_view text, int64_t* ns) {
  text = Trim(text);
  size_t i = 0;
  bool negative;
  uint64_t magnitude;
  if (!ParseSignAndDigits(text, &i, &negative, &magnitude) ||
      magnitude > static_cast<uint64_t>(INT64_MAX))
    return false;
  int64_t whole = static_cast<int64_t>(magnitude);
  int64_t frac = 0;  // first three decimals = nanoseconds
  bool round_up = false;
  if (i < text.size() && text[i] == '.') {
    ++i;
    size_t n = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++n) {
      if (n < 3)
        frac = frac * 10 + (text[i] - '0');
      else if (n == 3)
        round_up = text[i] >= '5';
    }
    if (n == 0) return false;
    for (; n < 3; ++n) frac *= 10;
  }
  if (i < text.size()) {
    if (text[i] != 'e' && text[i] != 'E') return false;
    return ParseViaDouble(text, 1000.0, ns);  // exponents are rare: a double is precise enough
  }
  int64_t value;
  if (__builtin_mul_overflow(whole, 1000, &value) ||
      __builtin_add_overflow(value, frac + (round_up ? 1 : 0), &value))
    return false;
  *ns = negative ? -value : value;
  return true;
}

bool ParseInteger(std::string_view text, int64_t* value) {
  text = Trim(text);
  size_t i = 0;
  bool negative;
  uint64_t v;
  if (!ParseSignAndDigits(text, &i, &negative, &v)) return false;
  if (i < text.size()) return ParseViaDouble(text, 1.0, value);
  if (negative) {
    if (v > static_cast<uint64_t>(INT64_MAX) + 1) return false;
    *value = static_cast<int64_t>(0 - v);
  } else {
    if (v > static_cast<uint64_t>(INT64_MAX)) return false;
    *value = static_cast<int64_t>(v);
  }
  return true;
}

}  // namespace profana::json
