#include "profana/base/duration.h"

#include <cmath>
#include <cstdlib>
#include <string>

#include "fmt/format.h"

namespace profana {
namespace {

int64_t UnitNs(DurationUnit unit) {
  switch (unit) {
    case DurationUnit::kNs:
      return 1;
    case DurationUnit::kUs:
      return 1000;
    case DurationUnit::kMs:
      return 1000 * 1000;
    case DurationUnit::kS:
      return 1000 * 1000 * 1000;
  }
  return 1;
}

// The unit a suffix names; false when it names none.
bool ParseUnit(std::string_view s, DurationUnit* unit) {
  if (s == "ns") {
    *unit = DurationUnit::kNs;
  } else if (s == "us" || s == "\xC2\xB5s" || s == "\xCE\xBCs") {  // micro sign, Greek mu
    *unit = DurationUnit::kUs;
  } else if (s == "ms") {
    *unit = DurationUnit::kMs;
  } else if (s == "s") {
    *unit = DurationUnit::kS;
  } else {
    return false;
  }
  return true;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::string_view DurationUnitName(DurationUnit unit) {
  switch (unit) {
    case DurationUnit::kNs:
      return "ns";
    case DurationUnit::kUs:
      return "us";
    case DurationUnit::kMs:
      return "ms";
    case DurationUnit::kS:
      return "s";
  }
  return "";
}

namespace {

// The nanoseconds `text` spells, as ParseDuration reads it; false if it spells none.
bool DurationNs(std::string_view text, DurationUnit bare_unit, int64_t* ns) {
  size_t i = 0;
  bool negative = i < text.size() && text[i] == '-';
  if (negative) ++i;
  size_t int_begin = i;
  while (i < text.size() && IsDigit(text[i])) ++i;
  std::string_view whole = text.substr(int_begin, i - int_begin);
  std::string_view fraction;
  if (i < text.size() && text[i] == '.') {
    size_t frac_begin = ++i;
    while (i < text.size() && IsDigit(text[i])) ++i;
    fraction = text.substr(frac_begin, i - frac_begin);
  }
  if (whole.empty() && fraction.empty()) return false;
  std::string_view suffix = text.substr(i);
  if (!suffix.empty() && suffix.front() == ' ') suffix.remove_prefix(1);
  DurationUnit unit = bare_unit;
  if (!suffix.empty() && !ParseUnit(suffix, &unit)) return false;
  if (suffix.empty() && i != text.size()) return false;  // a trailing space alone
  const int64_t scale = UnitNs(unit);
  // Whole part exactly, in int64, held at the end on overflow.
  int64_t value = 0;
  bool overflow = false;
  for (char c : whole) {
    if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, c - '0', &value))
      overflow = true;
    if (overflow) break;
  }
  if (!overflow && __builtin_mul_overflow(value, scale, &value)) overflow = true;
  if (!overflow && !fraction.empty()) {
    // Below the unit: at most 9 digits matter (a nanosecond of a second), rounded.
    double part = std::strtod(("0." + std::string(fraction)).c_str(), nullptr);
    int64_t extra = static_cast<int64_t>(std::llround(part * static_cast<double>(scale)));
    if (__builtin_add_overflow(value, extra, &value)) overflow = true;
  }
  if (overflow) {
    *ns = negative ? INT64_MIN : INT64_MAX;
    return true;
  }
  *ns = negative ? -value : value;
  return true;
}

}  // namespace

Result<int64_t> ParseDuration(std::string_view text, DurationUnit bare_unit, DurationSign sign) {
  int64_t ns = 0;
  bool non_negative = sign == DurationSign::kNonNegative;
  if (DurationNs(text, bare_unit, &ns) && (ns >= 0 || !non_negative)) return ns;
  return Status(ErrorCode::kInvalidArgument,
                fmt::format("{}: expected a duration{}: a number of {} or one with a unit (ns, "
                            "us, ms, s), e.g. 250us or 1.5ms",
                            text, non_negative ? ", 0 or more" : "",
                            bare_unit == DurationUnit::kNs   ? "nanoseconds"
                            : bare_unit == DurationUnit::kUs ? "microseconds"
                            : bare_unit == DurationUnit::kMs ? "milliseconds"
                                                             : "seconds"));
}

}  // namespace profana
