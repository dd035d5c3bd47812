// Recovery for JSON cut short (a profiler killed mid-write). A scan that knows strings and
// escapes finds the end of the last complete element of an array; the importer parses the text
// up to there plus the closing brackets still open, and reports the bytes it dropped.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace profana::json {

struct TruncationRepair {
  bool truncated = false;  // the text ends inside an unclosed container or string
  size_t cut = 0;          // keep text[0, cut); 0 when no element is complete
  std::string closers;     // then append these ("]}")
};

TruncationRepair FindTruncationRepair(std::string_view text);

// 1-based line and column of a byte offset, for messages.
void LineAndColumn(std::string_view text, size_t offset, size_t* line, size_t* column);

}  // namespace profana::json
