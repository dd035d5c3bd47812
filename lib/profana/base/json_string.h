// JSON string literals: writing one with every character that needs it escaped (so names with
// quotes, backslashes or control bytes still give valid JSON), and reading one back.
#pragma once

#include <string>
#include <string_view>

namespace profana {

// Appends "s" quoted and escaped. Bytes >= 0x80 pass through (UTF-8 stays UTF-8).
void AppendJsonString(std::string_view s, std::string* out);
// Reads a quoted JSON string at the start of `in`; sets *used to the bytes consumed. False if
// `in` does not start with a well-formed one. A \u escape of a lone UTF-16 surrogate (\ud800
// without its pair) has no UTF-8 form: it becomes U+FFFD and sets *replaced (if given).
bool ParseJsonString(std::string_view in, std::string* out, size_t* used, bool* replaced = nullptr);

}  // namespace profana
