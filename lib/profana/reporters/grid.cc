#include "profana/reporters/grid.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "fmt/format.h"
#include "profana/base/terminal_text.h"
#include "profana/reporters/csv_field.h"
#include "profana/reporters/markup_text.h"
#include "profana/reporters/number_format.h"
#include "profana/reporters/table_reporter.h"

namespace profana::report {

std::string Grid::Text() const {
  // Cells as terminal text shows them (a name's newline cannot start a row of its own), measured
  // as shown.
  std::vector<std::vector<std::string>> shown;
  shown.reserve(rows.size());
  for (const auto& row : rows) {
    shown.emplace_back();
    for (const std::string& cell : row) shown.back().push_back(Printable(cell));
  }
  std::vector<size_t> width(headers.size(), 0);
  for (size_t c = 0; c < headers.size(); ++c) width[c] = CodePointLength(headers[c]);
  for (const auto& row : shown)
    for (size_t c = 0; c < row.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], CodePointLength(row[c]));
  auto line = [&](const std::vector<std::string>& cells, std::string* out) {
    std::string text;
    for (size_t c = 0; c < width.size(); ++c) {
      const std::string cell = c < cells.size() ? cells[c] : "";
      size_t pad = width[c] - CodePointLength(cell);
      bool is_left = c < left.size() && left[c];
      if (c) text += "  ";
      if (!is_left) text.append(pad, ' ');
      text += cell;
      if (is_left && c + 1 < width.size()) text.append(pad, ' ');
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    *out += text;
    *out += '\n';
  };
  std::string out;
  line(headers, &out);
  std::vector<std::string> rule;
  for (size_t w : width) rule.emplace_back(w, '-');
  line(rule, &out);
  for (const auto& row : shown) line(row, &out);
  return out;
}

std::string Grid::Markdown() const {
  std::string out = "|";
  for (const std::string& h : headers) out += " " + MarkdownCell(h) + " |";
  out += "\n|";
  for (size_t c = 0; c < headers.size(); ++c)
    out += c < left.size() && left[c] ? " :--- |" : " ---: |";
  out += "\n";
  for (const auto& row : rows) {
    out += "|";
    for (const std::string& v : row) out += " " + MarkdownCell(v) + " |";
    out += "\n";
  }
  return out;
}

std::string Grid::Csv() const {
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (size_t c = 0; c < cells.size(); ++c) {
      if (c) out += ',';
      out += CsvField(cells[c]);
    }
    out += '\n';
  };
  line(headers);
  for (const auto& row : rows) line(row);
  return out;
}

std::string MicrosText(int64_t ns) {
  uint64_t mag = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  return fmt::format("{}{}.{:03}", ns < 0 ? "-" : "", mag / 1000, mag % 1000);
}

std::string Fixed(double value, int decimals) {
  if (std::isnan(value)) return "-";
  return fmt::format("{:.{}f}", value, decimals);
}

std::string DurationCellUs(double us, bool machine) {
  if (machine) return Fixed(us, 3);
  if (std::isnan(us)) return "-";
  return us < 0 ? "-" + FormatTime(-us) : FormatTime(us);
}

std::string DurationCell(int64_t ns, bool machine) {
  if (machine) return MicrosText(ns);
  return DurationCellUs(static_cast<double>(ns) / 1000.0, false);
}

std::string SizeCell(int64_t bytes, bool machine) {
  return machine ? fmt::format("{}", bytes) : FormatBytes(bytes);
}

}  // namespace profana::report
