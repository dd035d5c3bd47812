// Exact number parsing from JSON number text. Chrome-trace times are microseconds, often
// epoch-scale with decimals (1727743122123.456): a double cannot hold them to the nanosecond, so
// they are parsed digit by digit into int64 nanoseconds.
#pragma once

#include <cstdint>
#include <string_view>

namespace profana::json {

// "123", "123.4567", "-5", "1.5e3" (microseconds) -> nanoseconds, rounded half away from zero.
// False for text that is not a number or does not fit in int64 nanoseconds.
bool ParseMicrosToNanos(std::string_view text, int64_t* ns);

// An integer-valued number ("42", "42.0", "4.2e1") -> int64. False otherwise.
bool ParseInteger(std::string_view text, int64_t* value);

}  // namespace profana::json
