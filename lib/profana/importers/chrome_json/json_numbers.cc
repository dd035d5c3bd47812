#include "profana/importers/chrome_json/json_numbers.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "profana/base/json_string.h"

namespace profana::json {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

// JSON's number grammar (RFC 8259, base/json_string.h). simdjson's On-Demand API types a value by
// its first character only, so "0x10" or "0005" reach here, and strtod would read hexadecimal,
// "inf" and leading zeros that no JSON writer produces.
NumberError CheckGrammar(std::string_view t) {
  if (IsJsonNumber(t)) return NumberError::kNone;
  size_t i = !t.empty() && t[0] == '-';
  bool leading_zero = i + 1 < t.size() && t[i] == '0' && t[i + 1] >= '0' && t[i + 1] <= '9';
  return leading_zero ? NumberError::kLeadingZero : NumberError::kSyntax;
}

bool Fail(NumberError e, NumberError* why) {
  if (why) *why = e;
  return false;
}

// For the rare numbers with an exponent, once the grammar is checked: a double is precise enough.
bool ParseViaDouble(std::string_view text, double scale, bool integer, int64_t* out,
                    NumberError* why) {
  std::string copy(text);
  char* end = nullptr;
  double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(v)) return Fail(NumberError::kRange, why);
  double scaled = std::round(v * scale);
  if (integer && scaled != v * scale) return Fail(NumberError::kNotInteger, why);
  if (!(scaled >= -9.2e18 && scaled <= 9.2e18)) return Fail(NumberError::kRange, why);
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

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Eight bytes of text at once (SWAR), the first byte lowest: timestamps have 13 to 16 digits, and
// a loop over them, each digit waiting on the last and the loop's exit mispredicted, was the
// import's costliest arithmetic.
constexpr uint64_t EachByte(uint8_t b) { return 0x0101010101010101ull * b; }

uint64_t Load8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// How many of w's bytes, from the first, hold digits once '0' is taken off each (w ^ '0's).
int LeadingDigits(uint64_t values) {
  // A byte is not a digit when its value is 10 or more: adding 0x76 to its low seven bits sets
  // its high bit, without a carry into the next byte; a byte with the high bit set is not either.
  uint64_t not_digit = (((values & EachByte(0x7f)) + EachByte(0x76)) | values) & EachByte(0x80);
  return not_digit == 0 ? 8 : __builtin_ctzll(not_digit) / 8;
}

// The number the first k (1 to 8) bytes of w spell, digit values each: shifted to the top, the
// bytes above become leading zeros, and three multiplies combine pairs, fours and eights.
uint64_t DigitsValue(uint64_t values, int k) {
  values <<= 8 * (8 - k);
  values = values * 10 + (values >> 8);
  values = (((values & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
            (((values >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
           32;
  return values & 0xFFFFFFFFull;
}

constexpr uint64_t kPowersOf10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

// The numbers traces hold nearly always, read in one pass: -?(0|[1-9][0-9]{0,17})(\.[0-9]+)? and
// nothing after, which JSON's grammar allows and which cannot overflow. False for anything else
// (an exponent, 19 digits or more, what is not JSON), left to the careful path.
bool ReadPlainDecimal(std::string_view t, Padding padding, bool* negative, uint64_t* whole,
                      bool* point, std::string_view* fraction) {
  size_t i = 0, n = t.size();
  // Words are loaded only where all eight bytes may be read; the digits counted stop at n.
  size_t readable = padding == Padding::kEightBytes ? n + 8 : n;
  auto digits_at = [&](size_t at) {
    return std::min(static_cast<size_t>(LeadingDigits(Load8(t.data() + at) ^ EachByte('0'))),
                    n - at);
  };
  *negative = n > 0 && t[0] == '-';
  if (*negative) ++i;
  size_t start = i;
  uint64_t v = 0;
  while (i + 8 <= readable) {
    size_t k = digits_at(i);
    if (k == 0) break;
    if (i - start + k > 18) return false;
    v = v * kPowersOf10[k] + DigitsValue(Load8(t.data() + i) ^ EachByte('0'), static_cast<int>(k));
    i += k;
    if (k < 8) break;
  }
  for (; i < n && IsDigit(t[i]); ++i) {
    if (i - start == 18) return false;
    v = v * 10 + static_cast<uint64_t>(t[i] - '0');
  }
  if (i == start || (t[start] == '0' && i - start > 1)) return false;
  *whole = v;
  *point = i < n && t[i] == '.';
  if (*point) {
    size_t first = ++i;
    while (i + 8 <= readable) {
      size_t k = digits_at(i);
      i += k;
      if (k < 8) break;
    }
    while (i < n && IsDigit(t[i])) ++i;
    if (i == first) return false;
    *fraction = t.substr(first, i - first);
  }
  return i == n;
}

// whole.fraction microseconds as nanoseconds: the first three decimals, rounded half away from
// zero on the fourth.
bool MicrosToNanos(bool negative, uint64_t whole, std::string_view fraction, int64_t* ns,
                   NumberError* why) {
  if (whole > static_cast<uint64_t>(INT64_MAX)) return Fail(NumberError::kRange, why);
  int64_t frac = 0;
  size_t n = 0;
  for (; n < 3; ++n) frac = frac * 10 + (n < fraction.size() ? fraction[n] - '0' : 0);
  bool round_up = fraction.size() > 3 && fraction[3] >= '5';
  int64_t value;
  if (__builtin_mul_overflow(static_cast<int64_t>(whole), 1000, &value) ||
      __builtin_add_overflow(value, frac + (round_up ? 1 : 0), &value))
    return Fail(NumberError::kRange, why);
  *ns = negative ? -value : value;
  return true;
}

}  // namespace

const char* NumberErrorText(NumberError e) {
  switch (e) {
    case NumberError::kNone:
      break;
    case NumberError::kSyntax:
      return "is not a JSON number (hexadecimal, a sign or a point without digits, or other text)";
    case NumberError::kLeadingZero:
      return "is not a JSON number (leading zeros)";
    case NumberError::kNotInteger:
      return "is not an integer";
    case NumberError::kRange:
      return "is out of range";
  }
  return "";
}

bool ParseMicrosToNanos(std::string_view text, int64_t* ns, NumberError* why, Padding padding) {
  text = Trim(text);
  bool negative, point;
  uint64_t whole;
  std::string_view fraction;
  if (ReadPlainDecimal(text, padding, &negative, &whole, &point, &fraction))
    return MicrosToNanos(negative, whole, fraction, ns, why);
  if (NumberError e = CheckGrammar(text); e != NumberError::kNone) return Fail(e, why);
  size_t i = 0;
  if (!ParseSignAndDigits(text, &i, &negative, &whole) || whole > static_cast<uint64_t>(INT64_MAX))
    return Fail(NumberError::kRange, why);
  size_t digits = i;
  if (i < text.size() && text[i] == '.')
    while (++i < text.size() && IsDigit(text[i])) {
    }
  if (i < text.size()) return ParseViaDouble(text, 1000.0, false, ns, why);  // an exponent
  fraction = digits < text.size() ? text.substr(digits + 1) : std::string_view();
  return MicrosToNanos(negative, whole, fraction, ns, why);
}

bool ParseInteger(std::string_view text, int64_t* value, NumberError* why, Padding padding) {
  text = Trim(text);
  bool plain_negative, point;
  uint64_t whole;
  std::string_view fraction;
  if (ReadPlainDecimal(text, padding, &plain_negative, &whole, &point, &fraction) && !point) {
    *value = plain_negative ? -static_cast<int64_t>(whole) : static_cast<int64_t>(whole);
    return true;
  }
  if (NumberError e = CheckGrammar(text); e != NumberError::kNone) return Fail(e, why);
  size_t i = 0;
  bool negative;
  uint64_t v;
  if (!ParseSignAndDigits(text, &i, &negative, &v)) return Fail(NumberError::kRange, why);
  if (i < text.size()) return ParseViaDouble(text, 1.0, true, value, why);  // "42.0", "4.2e1"
  if (negative) {
    if (v > static_cast<uint64_t>(INT64_MAX) + 1) return Fail(NumberError::kRange, why);
    *value = static_cast<int64_t>(0 - v);
  } else {
    if (v > static_cast<uint64_t>(INT64_MAX)) return Fail(NumberError::kRange, why);
    *value = static_cast<int64_t>(v);
  }
  return true;
}

}  // namespace profana::json
