// JSON string literals: writing one with every character that needs it escaped (so names with
// quotes, backslashes or control bytes still give valid JSON), and reading one back.
#pragma once

#include <string>
#include <string_view>

namespace profana {

// Appends "s" quoted and escaped. Valid UTF-8 passes through; an invalid sequence is written as
// U+FFFD (base/utf8.h), so the document is UTF-8 whatever `s` holds.
void AppendJsonString(std::string_view s, std::string* out);
// Reads a quoted JSON string at the start of `in`; sets *used to the bytes consumed. False if
// `in` does not start with a well-formed one. A \u escape of a lone UTF-16 surrogate (\ud800
// without its pair) has no UTF-8 form, and bytes that are not UTF-8 are no text: either becomes
// U+FFFD and sets *replaced (if given).
bool ParseJsonString(std::string_view in, std::string* out, size_t* used, bool* replaced = nullptr);
// True when `t` is a number as JSON writes one: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool IsJsonNumber(std::string_view t);

}  // namespace profana
