// One CSV field, quoted (RFC 4180) only when it holds a comma, a quote or a line break.
#pragma once

#include <string>
#include <string_view>

namespace profana::report {

inline std::string CsvField(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

}  // namespace profana::report
