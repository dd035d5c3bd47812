// One CSV field, quoted (RFC 4180) only when it holds a comma, a quote or a line break. A text
// field a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage
// return) gets a leading ' (OWASP's advice on CSV injection); numbers, negative ones included,
// and a lone - stay as they are.
#pragma once

#include <string>
#include <string_view>

namespace profana::report {

// True for a plain number as the reporters write them: -12, 3.5, 1e-3, +12.5%.
inline bool IsCsvNumber(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  size_t digits = 0;
  for (; i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'); ++i) digits += s[i] != '.';
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    size_t exponent = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) ++exponent;
    if (exponent == 0) return false;
  }
  if (i < s.size() && s[i] == '%') ++i;
  return i == s.size();
}

inline std::string CsvField(std::string_view s) {
  // A lone "-" (the reports' "no value") is no formula.
  bool formula = !s.empty() && std::string_view("=+-@\t\r").find(s[0]) != std::string_view::npos &&
                 s != "-" && !IsCsvNumber(s);
  if (!formula && s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string out = formula ? "'" : "";
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return out.append(s);
  out.insert(0, "\"");
  for (char c : s) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

}  // namespace profana::report
