// A self-contained interactive flamegraph SVG (frame titles on hover, click to zoom, Escape or
// "Reset zoom" to unzoom, regular-expression search), drawn from merged folded stacks. No
// external scripts, fonts or styles.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace profana::report {

// merged: folded stack text ("a;b;c") -> weight. unit labels the weights in titles ("us").
std::string FormatFlamegraphSvg(const std::map<std::string, int64_t>& merged,
                                const std::string& title, const std::string& unit);

}  // namespace profana::report
