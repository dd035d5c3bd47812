// Checks of option values, as CLI11 validators: a bad value stops the command line while it is
// parsed, before any file is read, and every such error reads the same way: one line
// "profana: error: --option VALUE: expected ..." (or "--option: unknown NOUN ..." for a name
// from a list) and exit 2. The description each check gives shows in --help after the type.
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
// The same message for names the library parses (with aliases): valid(value) says whether it
// is one. `names` lists them ("a, b, c") for the message; --help shows no set. The validator is
// named kNamedValues followed by them ("values:a,b,c"), which shell completion offers.
constexpr const char* kNamedValues = "values:";
CLI::Validator Named(std::string option, std::string noun, std::string names,
                     std::function<bool(const std::string&)> valid);
// An option whose text the library parses into *value (`parse`, with its aliases); a bad name
// fails as Named's do. Returns the option, for a default_str.
template <typename T>
CLI::Option* AddNamedOption(CLI::App* command, const std::string& option, T* value,
                            bool (*parse)(std::string_view, T*), const std::string& noun,
                            const std::string& names, const std::string& help) {
  return command
      ->add_option_function<std::string>(
          option, [value, parse](const std::string& text) { parse(text, value); }, help)
      ->check(Named(option, noun, names, [parse](const std::string& text) {
        T parsed;
        return parse(text, &parsed);
      }));
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
// A duration, 0 or more: a number with a unit as the outputs print times (1.5ms, 250us, 2s,
// 30ns), or a bare number in `bare_unit` (base/duration.h). --help shows DURATION.
CLI::Validator Duration(std::string option, DurationUnit bare_unit);
// An option holding such a duration in nanoseconds; the help should name the bare unit.
CLI::Option* AddDurationOption(CLI::App* command, const std::string& option, int64_t* ns,
                               DurationUnit bare_unit, const std::string& help);
// A size such as 512M or 16G, or 0 (base/memory_limit.h ParseByteSize).
CLI::Validator ByteSize(std::string option);
// A percentage such as 5%, or a fraction such as 0.05; not negative.
CLI::Validator Percentage(std::string option);
// An option whose text the library parses once, into the typed value `parse` stores where the
// command reads it; a failed parse stops the command line with the parser's message. The
// plural takes the option repeated, each value parsed in turn.
CLI::Option* AddParsedOption(CLI::App* command, const std::string& option,
                             std::function<Status(const std::string&)> parse,
                             const std::string& help);
CLI::Option* AddParsedOptions(CLI::App* command, const std::string& option,
                              std::function<Status(const std::string&)> parse,
                              const std::string& help);

// An int option that sets an optional<int> (which holds its default, shown in --help).
inline CLI::Option* AddOptionalInt(CLI::App* command, const char* name, std::optional<int>* value,
                                   const char* help) {
  return command
      ->add_option_function<int>(
          name, [value](int v) { *value = v; }, help)
      ->default_str(std::to_string(**value));
}

// "5%" and "0.05" are 0.05. False for anything else, and for negative or non-finite values.
bool ParsePercentage(const std::string& text, double* fraction);

}  // namespace profana::app
