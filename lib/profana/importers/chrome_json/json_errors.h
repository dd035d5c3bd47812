// Positions and wording for the JSON errors simdjson finds before iteration starts (bad UTF-8,
// nesting too deep), where it can give no position of its own, and the end of a JSON value
// (bytes after it; the streaming importer's skip over header members). Each scans the text once.
#pragma once

#include <cstddef>
#include <string_view>

namespace profana::json {

// simdjson's nesting limit (DEFAULT_MAX_DEPTH): deeper documents fail with DEPTH_ERROR.
constexpr size_t kMaxJsonDepth = 1024;

// Offset of the first byte that is not valid UTF-8; text.size() when all are.
size_t FirstInvalidUtf8(std::string_view text);

// Offset of the '[' or '{' that opens level max_depth + 1 (outside strings); text.size() if none.
size_t FirstTooDeep(std::string_view text, size_t max_depth);

// Offset just past the bracket that closes the first top-level '[' or '{' (outside strings);
// std::string_view::npos when it never closes.
size_t EndOfTopLevelValue(std::string_view text);

}  // namespace profana::json
