// The option checks of names: one of a fixed list, one the library parses, a value the library
// parses. The checks of numbers are in option_numbers.cc.
#include "profana/commands/option_checks.h"

#include "fmt/format.h"

namespace profana::app {
CLI::Validator Check(std::string description,
                     std::function<std::string(const std::string&)> check) {
  return CLI::Validator(
      [check = std::move(check)](std::string& value) -> std::string {
        std::string message = check(value);
        if (!message.empty()) throw BadOptionValue(std::move(message));
        return "";
      },
      std::move(description));
}

namespace {

std::string UnknownName(const std::string& option, const std::string& noun,
                        const std::string& value, const std::string& names) {
  return fmt::format("{}: unknown {} \"{}\" (expected one of: {})", option, noun, value, names);
}

}  // namespace

CLI::Validator OneOf(std::string option, std::string noun, std::vector<std::string> names) {
  std::string set = fmt::format("{{{}}}", fmt::join(names, ","));
  std::string list = fmt::format("{}", fmt::join(names, ", "));
  return Check(set, [option, noun, names, list](const std::string& value) {
    for (const std::string& n : names)
      if (n == value) return std::string();
    return UnknownName(option, noun, value, list);
  });
}

CLI::Validator Named(std::string option, std::string noun, std::string names,
                     std::function<bool(const std::string&)> valid) {
  return Check("", [option, noun, names, valid](const std::string& value) {
    return valid(value) ? std::string() : UnknownName(option, noun, value, names);
  });
}

CLI::Validator ParsedBy(std::function<Status(const std::string&)> parse) {
  return Check("", [parse](const std::string& value) { return parse(value).message(); });
}

}  // namespace profana::app
