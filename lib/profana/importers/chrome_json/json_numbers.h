// Exact number parsing from JSON number text. Chrome-trace times are microseconds, often
// epoch-scale with decimals (1727743122123.456): a double cannot hold them to the nanosecond, so
// they are parsed digit by digit into int64 nanoseconds.
#pragma once

#include <cstdint>
#include <string_view>

namespace profana::json {

// What was wrong with a number that did not parse, for the diagnostic.
enum class NumberError : uint8_t {
  kNone,
  kSyntax,       // not JSON's number grammar: hexadecimal, "inf", "1.", "+1", "1e"
  kLeadingZero,  // "0005": JSON allows no leading zeros
  kNotInteger,   // "1.5" where an integer is expected
  kRange,        // does not fit (int64, or int64 nanoseconds)
};

// The phrase that follows `field "pid" ` in a diagnostic.
const char* NumberErrorText(NumberError e);

// Whether the 8 bytes after a number's text may be read: true inside simdjson's input, which is
// padded past the document. Digits are then read eight at a time however short the number; the
// bytes past the text never change the result.
enum class Padding : bool { kNone, kEightBytes };

// "123", "123.4567", "-5", "1.5e3" (microseconds) -> nanoseconds, rounded half away from zero.
// False for text that is not a JSON number (see NumberError) or does not fit in int64
// nanoseconds; *why (if given) says which.
bool ParseMicrosToNanos(std::string_view text, int64_t* ns, NumberError* why = nullptr,
                        Padding padding = Padding::kNone);

// An integer-valued JSON number ("42", "42.0", "4.2e1") -> int64. False otherwise: "1.5" is not
// rounded, "0x10" and "0005" are not JSON numbers.
bool ParseInteger(std::string_view text, int64_t* value, NumberError* why = nullptr,
                  Padding padding = Padding::kNone);

}  // namespace profana::json
