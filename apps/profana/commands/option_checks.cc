// The option checks of names: one of a fixed list, one the library parses, a value the library
// parses. The checks of numbers are in option_numbers.cc.
#include "profana/commands/option_checks.h"

#include <algorithm>

#include "fmt/format.h"
#include "profana/base/nearest_names.h"

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

// `names` is the list as the message prints it: "a, b, c".
std::string UnknownName(const std::string& option, const std::string& noun,
                        const std::string& value, const std::string& names) {
  std::vector<std::string> each;
  for (size_t at = 0; at <= names.size();) {
    size_t end = std::min(names.find(", ", at), names.size());
    each.push_back(names.substr(at, end - at));
    at = end + 2;
  }
  std::string hint = DidYouMean(value, each);
  return fmt::format("{}: unknown {} \"{}\"{} (expected one of: {})", option, noun, value,
                     hint.empty() ? "" : "; " + hint, names);
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
  std::string values = kNamedValues;  // what shell completion offers (cli_completion.cc)
  for (char c : names)
    if (c != ' ') values += c;
  return Check("",
               [option, noun, names, valid](const std::string& value) {
                 return valid(value) ? std::string() : UnknownName(option, noun, value, names);
               })
      .name(values);
}

CLI::Option* AddParsedOption(CLI::App* command, const std::string& option,
                             std::function<Status(const std::string&)> parse,
                             const std::string& help) {
  return command->add_option_function<std::string>(
      option,
      [parse = std::move(parse)](const std::string& text) {
        if (Status s = parse(text); !s.ok()) throw BadOptionValue(s.message());
      },
      help);
}

CLI::Option* AddParsedOptions(CLI::App* command, const std::string& option,
                              std::function<Status(const std::string&)> parse,
                              const std::string& help) {
  return command->add_option_function<std::vector<std::string>>(
      option,
      [parse = std::move(parse)](const std::vector<std::string>& texts) {
        for (const std::string& text : texts)
          if (Status s = parse(text); !s.ok()) throw BadOptionValue(s.message());
      },
      help);
}

}  // namespace profana::app
