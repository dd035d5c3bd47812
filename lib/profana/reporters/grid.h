// Grid: a table of cells as strings, drawn as aligned text (numbers right-aligned, the columns
// marked left-aligned on the left), a Markdown table, or CSV. For the whole-job reports (steps,
// kernels), whose columns are plain values rather than PyTorch's table.
#pragma once

#include <string>
#include <vector>

namespace profana::report {

struct Grid {
  std::vector<std::string> headers;
  std::vector<bool> left;  // per column: left-aligned (names); default right-aligned
  std::vector<std::vector<std::string>> rows;

  void AddRow(std::vector<std::string> row) { rows.push_back(std::move(row)); }
  // Cells are text as given (names with any bytes); each format escapes them by its own rule
  // (terminal_text.h, markup_text.h, csv_field.h).
  std::string Text() const;      // two spaces between columns, a dashed rule under the headers
  std::string Markdown() const;  // | a | b |
  std::string Csv() const;       // the header line, then the rows
};

// Nanoseconds as microseconds with three decimals ("1234.567"), exact.
std::string MicrosText(int64_t ns);
// A double with fixed decimals ("12.35"); "-" for NaN.
std::string Fixed(double value, int decimals);

// The cells of a duration and a size, one rule for every report (docs/commands.md, "One
// vocabulary"): a machine format (CSV) writes the plain number, its unit in the column's name
// (microseconds with three decimals, bytes); text and Markdown write the unit in each cell, a
// duration as PyTorch's _format_time ("1.271ms", report::FormatTime; a negative one with a minus
// before it) and a size in powers of 1024 (FormatBytes, "2.36 GiB").
std::string DurationCell(int64_t ns, bool machine);
std::string DurationCellUs(double us, bool machine);
std::string SizeCell(int64_t bytes, bool machine);

}  // namespace profana::report
