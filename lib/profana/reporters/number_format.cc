#include "profana/reporters/number_format.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string_view>

#include "fmt/format.h"

namespace profana::report {

namespace {

// Two digits at a time: "00" to "99".
constexpr char kDigitPairs[] =
    "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546"
    "4748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293"
    "949596979899";

// `value` with three decimals and the unit at `at` (kTimeTextRoom bytes of room), as fmt's {:.3f}
// writes the number, where the rounding is plain from value * 1000 in integers: most values, at a
// fraction of fmt's cost (`tree` writes millions). The end of the text; nullptr, writing nothing,
// for the rest (negative, huge, or within reach of a rounding tie), which fmt then writes.
char* WriteThreeDecimals(char* at, double value, std::string_view unit) {
  // Below 2^40 the product is off from the exact value * 1000 by less than 2^-13, far inside the
  // margin kept from a tie.
  constexpr double kLargest = 1099511627776.0;  // 2^40
  constexpr double kMargin = 1e-3;
  double scaled = value * 1000.0;
  if (!(scaled >= 0 && scaled < kLargest)) return nullptr;
  double whole = std::floor(scaled);
  double fraction = scaled - whole;
  if (std::fabs(fraction - 0.5) < kMargin) return nullptr;
  uint64_t n = static_cast<uint64_t>(whole) + (fraction > 0.5 ? 1 : 0);
  // The whole part (at most 10 digits below 2^40 / 1000) is written backwards into digits, then
  // copied, then the decimals and the unit.
  char digits[16];
  char* end = digits + sizeof digits;
  char* begin = end;
  uint64_t whole_part = n / 1000;
  for (; whole_part >= 100; whole_part /= 100) {
    begin -= 2;
    std::memcpy(begin, kDigitPairs + 2 * (whole_part % 100), 2);
  }
  if (whole_part >= 10) {
    begin -= 2;
    std::memcpy(begin, kDigitPairs + 2 * whole_part, 2);
  } else {
    *--begin = static_cast<char>('0' + whole_part);
  }
  std::memcpy(at, begin, static_cast<size_t>(end - begin));
  at += end - begin;
  auto thousandths = static_cast<uint32_t>(n % 1000);
  *at++ = '.';
  *at++ = static_cast<char>('0' + thousandths / 100);
  std::memcpy(at, kDigitPairs + 2 * (thousandths % 100), 2);
  at += 2;
  std::memcpy(at, unit.data(), unit.size());
  return at + unit.size();
}

// A time in the unit _format_time picks for it: seconds, milliseconds or microseconds.
struct TimeInUnit {
  double value;
  std::string_view unit;
};
TimeInUnit InUnit(double time_us) {
  constexpr double kUsInSecond = 1000.0 * 1000.0;
  constexpr double kUsInMs = 1000.0;
  if (time_us >= kUsInSecond) return {time_us / kUsInSecond, "s"};
  if (time_us >= kUsInMs) return {time_us / kUsInMs, "ms"};
  return {time_us, "us"};
}

}  // namespace

void AppendTime(std::string* out, double time_us) {
  auto [value, unit] = InUnit(time_us);
  char text[kTimeTextRoom];
  if (char* end = WriteThreeDecimals(text, value, unit)) {
    out->append(text, end);
    return;
  }
  fmt::format_to(std::back_inserter(*out), "{:.3f}", value);
  out->append(unit);
}

char* WriteTime(char* at, double time_us) {
  auto [value, unit] = InUnit(time_us);
  return WriteThreeDecimals(at, value, unit);
}

std::string FormatTime(double time_us) {
  std::string out;
  AppendTime(&out, time_us);
  return out;
}

std::string FormatTimeShare(double time_us, double total_us) {
  if (total_us == 0) return "NaN";
  return fmt::format("{:.2f}%", time_us * 100.0 / total_us);
}

std::string FormatMemory(int64_t bytes, MemoryUnits units) {
  constexpr uint64_t kKb = 1024, kMb = 1024 * kKb, kGb = 1024 * kMb;
  const bool v2 = units == MemoryUnits::kPyTorch2;
  // Unsigned: the magnitude of INT64_MIN does not fit in an int64_t.
  uint64_t magnitude = bytes < 0 ? 0 - static_cast<uint64_t>(bytes) : static_cast<uint64_t>(bytes);
  if (magnitude >= kGb) return fmt::format("{:.2f} {}", bytes * 1.0 / kGb, v2 ? "GB" : "Gb");
  if (magnitude >= kMb) return fmt::format("{:.2f} {}", bytes * 1.0 / kMb, v2 ? "MB" : "Mb");
  if (magnitude >= kKb) return fmt::format("{:.2f} {}", bytes * 1.0 / kKb, v2 ? "KB" : "Kb");
  return fmt::format("{} {}", bytes, v2 ? "B" : "b");
}

}  // namespace profana::report
