// Durations written on the command line: a number with an optional unit, the way profana's
// outputs print times ("1.234ms", "12.345us", "1.000s"), so a value can be pasted back.
#pragma once

#include <cstdint>
#include <string_view>

#include "profana/base/status.h"

namespace profana {

enum class DurationUnit { kNs, kUs, kMs, kS };

// Whether a leading "-" is accepted: a window may start before the trace's origin; a threshold
// is 0 or more.
enum class DurationSign { kAny, kNonNegative };

// Nanoseconds from "100ms", "1.5 ms", "250us", "250µs", "30ns", "2s", or a bare number in
// `bare_unit`. Fractions are rounded to the nearest nanosecond; a magnitude past int64
// nanoseconds (about 292 years) is held at INT64_MAX or INT64_MIN. Anything else is
// kInvalidArgument: "TEXT: expected a duration[, 0 or more]: ...".
Result<int64_t> ParseDuration(std::string_view text, DurationUnit bare_unit,
                              DurationSign sign = DurationSign::kAny);

// "ns", "us", "ms", "s".
std::string_view DurationUnitName(DurationUnit unit);

}  // namespace profana
