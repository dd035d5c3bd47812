// The option checks of numbers: whole numbers in a range, non-negative numbers, durations, byte
// sizes and percentages.
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "fmt/format.h"
#include "profana/base/memory_limit.h"
#include "profana/commands/option_checks.h"

namespace profana::app {

CLI::Validator WholeNumber(std::string option, int64_t min, int64_t max) {
  std::string description = min == 1 ? "POSITIVE" : min == 0 ? "NONNEGATIVE" : "";
  std::string expected = min == std::numeric_limits<int64_t>::min()
                             ? "a whole number"
                             : fmt::format("a whole number, {} or more", min);
  return Check(description, [option, min, max, expected](const std::string& value) {
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(value.c_str(), &end, 0);
    if (value.empty() || *end != '\0' || errno == ERANGE || v < min || v > max)
      return fmt::format("{} {}: expected {}", option, value, expected);
    return std::string();
  });
}

CLI::Validator NonNegativeNumber(std::string option) {
  return Check("NONNEGATIVE", [option](const std::string& value) {
    char* end = nullptr;
    double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !std::isfinite(v) || v < 0)
      return fmt::format("{} {}: expected a number, 0 or more", option, value);
    return std::string();
  });
}

CLI::Validator Duration(std::string option, DurationUnit bare_unit) {
  return Check("DURATION", [option, bare_unit](const std::string& value) {
    int64_t ns = 0;
    if (ParseDuration(value, bare_unit, &ns) && ns >= 0) return std::string();
    return fmt::format(
        "{} {}: expected a duration, 0 or more: a number of {} or one with a unit (ns, us, ms, "
        "s), e.g. 250us or 1.5ms",
        option, value,
        bare_unit == DurationUnit::kNs   ? "nanoseconds"
        : bare_unit == DurationUnit::kUs ? "microseconds"
        : bare_unit == DurationUnit::kMs ? "milliseconds"
                                         : "seconds");
  });
}

CLI::Option* AddDurationOption(CLI::App* command, const std::string& option, int64_t* ns,
                               DurationUnit bare_unit, const std::string& help) {
  return command
      ->add_option_function<std::string>(
          option, [ns, bare_unit](const std::string& text) { ParseDuration(text, bare_unit, ns); },
          help)
      ->check(Duration(option, bare_unit));
}

CLI::Validator ByteSize(std::string option) {
  return Check("", [option](const std::string& value) {
    uint64_t bytes = 0;
    if (ParseByteSize(value, &bytes)) return std::string();
    return fmt::format("{} {}: expected a size such as 512M, 16G or 0 (no limit)", option, value);
  });
}

bool ParsePercentage(const std::string& text, double* fraction) {
  std::string s = text;
  bool percent = !s.empty() && s.back() == '%';
  if (percent) s.pop_back();
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(v) || v < 0) return false;
  *fraction = percent ? v / 100 : v;
  return true;
}

CLI::Validator Percentage(std::string option) {
  return Check("", [option](const std::string& value) {
    double fraction = 0;
    if (ParsePercentage(value, &fraction)) return std::string();
    return fmt::format("{} \"{}\": expected a percentage like 5% (or a fraction like 0.05)", option,
                       value);
  });
}

}  // namespace profana::app
