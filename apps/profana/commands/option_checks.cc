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

CLI::Validator OneOf(std::string option, std::string noun, std::vector<std::string> names) {
  std::string set = fmt::format("{{{}}}", fmt::join(names, ","));
  return Check(set, [option, noun, names](const std::string& value) {
    for (const std::string& n : names)
      if (n == value) return std::string();
    return fmt::format("{}: {}", option, UnknownNameMessage(noun, value, names));
  });
}

CLI::Option* AddChoiceOption(CLI::App* command, const std::string& option, const std::string& noun,
                             std::vector<std::string> names, std::function<void(size_t)> choose,
                             const std::string& help) {
  CLI::Validator check = OneOf(option, noun, names);
  std::string first = names.front();
  auto chosen = [names = std::move(names), choose = std::move(choose)](const std::string& value) {
    choose(std::find(names.begin(), names.end(), value) - names.begin());  // OneOf found it
  };
  return command->add_option_function<std::string>(option, chosen, help)
      ->check(std::move(check))
      ->default_str(first);
}

namespace {

// Parses each of `texts` in turn; the first error stops the command line, after `prefix`.
void ParseEach(const std::function<Status(const std::string&)>& parse, const std::string& prefix,
               const std::vector<std::string>& texts) {
  for (const std::string& text : texts)
    if (Status s = parse(text); !s.ok()) throw BadOptionValue(prefix + s.message());
}

CLI::Option* AddParsed(CLI::App* command, const std::string& option,
                       std::function<Status(const std::string&)> parse, const std::string& help,
                       bool repeatable, std::string prefix) {
  auto each = [parse = std::move(parse), prefix = std::move(prefix)](const auto& texts) {
    ParseEach(parse, prefix, texts);
  };
  if (repeatable) return command->add_option_function<std::vector<std::string>>(option, each, help);
  return command->add_option_function<std::string>(
      option, [each](const std::string& text) { each(std::vector<std::string>{text}); }, help);
}

}  // namespace

CLI::Option* AddParsedOption(CLI::App* command, const std::string& option,
                             std::function<Status(const std::string&)> parse,
                             const std::string& help, bool repeatable) {
  return AddParsed(command, option, std::move(parse), help, repeatable, option + " ");
}

CLI::Option* AddNamedOption(CLI::App* command, const std::string& option,
                            std::function<Status(const std::string&)> parse,
                            const std::vector<std::string>& names, const std::string& help) {
  // What shell completion offers (cli_completion.cc).
  std::string values = fmt::format("{}{}", kNamedValues, fmt::join(names, ","));
  return AddParsed(command, option, std::move(parse), help, false, option + ": ")
      ->check(CLI::Validator("").name(values));
}

}  // namespace profana::app
