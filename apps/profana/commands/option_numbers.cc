// The options of numbers: whole numbers in a range, non-negative numbers, durations and
// percentages.
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "fmt/format.h"
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

CLI::Option* AddDurationOption(CLI::App* command, const std::string& option, int64_t* ns,
                               DurationUnit bare_unit, const std::string& help) {
  return AddParsedOption(
             command, option,
             [ns, bare_unit](const std::string& text) -> Status {
               PROFANA_ASSIGN_OR_RETURN(*ns,
                                        ParseDuration(text, bare_unit, DurationSign::kNonNegative));
               return Status::Ok();
             },
             help)
      ->check(CLI::Validator("DURATION"));
}

Result<double> ParsePercentage(const std::string& text) {
  std::string s = text;
  bool percent = !s.empty() && s.back() == '%';
  if (percent) s.pop_back();
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(v) || v < 0)
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format("\"{}\": expected a percentage like 5% (or a fraction like 0.05)", text));
  return percent ? v / 100 : v;
}

}  // namespace profana::app
