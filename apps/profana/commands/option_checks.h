// Option values, parsed once into typed values as the command line is read, before any file is
// read. A bad value stops the command line, and every such error reads the same way: one line
// "profana: error: --option VALUE: expected ..." (or "--option: unknown NOUN ..." for a name
// from a list) and exit 2: the option's name, then the library parser's message
// (docs/architecture.md, "Where new code goes"). The description each option's validator gives
// shows in --help after the type.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "CLI/CLI.hpp"
#include "profana/base/duration.h"
#include "profana/base/status.h"

namespace profana::app {

// What a failed check throws: the whole message, without CLI11's "Run --help" hint. RunCli
// prints it as an error. Not a CLI::ValidationError, which CLI11 would catch and reword.
class BadOptionValue : public CLI::ParseError {
 public:
  explicit BadOptionValue(std::string message)
      : CLI::ParseError("BadOptionValue", std::move(message), CLI::ExitCodes::ValidationError) {}
};

// A validator whose check returns the error message, empty when the value is good; a message
// stops the command line as BadOptionValue. The checks below are made of it.
CLI::Validator Check(std::string description, std::function<std::string(const std::string&)> check);

// Names (option_checks.cc). A name from `names` ("{text,json}" in --help): `--format: unknown
// format "x" (expected one of: text, json)`.
CLI::Validator OneOf(std::string option, std::string noun, std::vector<std::string> names);

// An option naming one of `values` (spelled as `name_of` spells them, the first the default) into
// *value, chosen as the command line is read; a name not among them stops the command line as
// OneOf says. --help shows the set as OneOf does. Returns the option.
CLI::Option* AddChoiceOption(CLI::App* command, const std::string& option, const std::string& noun,
                             std::vector<std::string> names, std::function<void(size_t)> choose,
                             const std::string& help);
template <typename T, typename NameOf>
CLI::Option* AddChoiceOption(CLI::App* command, const std::string& option, const std::string& noun,
                             T* value, const std::vector<T>& values, NameOf name_of,
                             const std::string& help) {
  std::vector<std::string> names;
  for (T v : values) names.emplace_back(name_of(v));
  *value = values.front();
  auto choose = [value, values](size_t i) { *value = values[i]; };
  return AddChoiceOption(command, option, noun, std::move(names), choose, help);
}

// An option whose text `parse` reads once, as the command line is read: `parse` stores the typed
// value where the command reads it, or returns the parser's error, which stops the command line
// as "OPTION MESSAGE". `repeatable`: the option may be given many times, each value parsed in
// turn. Returns the option, for a group, a default_str or a validator that describes it.
CLI::Option* AddParsedOption(CLI::App* command, const std::string& option,
                             std::function<Status(const std::string&)> parse,
                             const std::string& help, bool repeatable = false);

// An option naming a value the library parses (`parse`, with its aliases: base/named_values.h)
// into *value; a bad name stops the command line as "OPTION: unknown NOUN ...". --help shows no
// set; the option's validator is named kNamedValues followed by `names` ("values:a,b,c"), which
// shell completion offers. Returns the option, for a default_str.
constexpr const char* kNamedValues = "values:";
CLI::Option* AddNamedOption(CLI::App* command, const std::string& option,
                            std::function<Status(const std::string&)> parse,
                            const std::vector<std::string>& names, const std::string& help);
template <typename T>
CLI::Option* AddNamedOption(CLI::App* command, const std::string& option, T* value,
                            Result<T> (*parse)(std::string_view),
                            const std::vector<std::string>& names, const std::string& help) {
  return AddNamedOption(
      command, option,
      [value, parse](const std::string& text) {
        Result<T> parsed = parse(text);
        if (parsed.ok()) *value = *parsed;
        return parsed.status();
      },
      names, help);
}

// Numbers (option_numbers.cc). A whole number in [min, max], as CLI11 reads it (strtoll, base
// prefixes allowed). --help shows POSITIVE for min 1 and NONNEGATIVE for min 0, unless
// .description("") hides it where the option's own text says enough.
CLI::Validator WholeNumber(std::string option, int64_t min,
                           int64_t max = std::numeric_limits<int64_t>::max());
template <typename T>
CLI::Validator WholeNumber(std::string option, int64_t min) {
  return WholeNumber(std::move(option), min, static_cast<int64_t>(std::numeric_limits<T>::max()));
}
// A finite number, 0 or more (NONNEGATIVE in --help).
CLI::Validator NonNegativeNumber(std::string option);
// An option holding a duration, 0 or more, in nanoseconds: a number with a unit as the outputs
// print times (1.5ms, 250us, 2s, 30ns), or a bare number in `bare_unit` (base/duration.h), which
// the help should name. --help shows DURATION.
CLI::Option* AddDurationOption(CLI::App* command, const std::string& option, int64_t* ns,
                               DurationUnit bare_unit, const std::string& help);

// An int option that sets an optional<int> (which holds its default, shown in --help).
inline CLI::Option* AddOptionalInt(CLI::App* command, const char* name, std::optional<int>* value,
                                   const char* help) {
  return command
      ->add_option_function<int>(
          name, [value](int v) { *value = v; }, help)
      ->default_str(std::to_string(**value));
}

// "5%" and "0.05" are 0.05. Anything else, negative or non-finite values too, is kInvalidArgument:
// "\"TEXT\": expected a percentage ...".
Result<double> ParsePercentage(const std::string& text);

}  // namespace profana::app
