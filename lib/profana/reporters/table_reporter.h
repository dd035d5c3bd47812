// The text table of PyTorch's _build_table (what key_averages().table() prints), byte for
// byte, for rows computed by passes/key_averages. Formatting only: rows arrive sorted.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "profana/base/row_limit.h"
#include "profana/base/string_pool.h"
#include "profana/passes/key_averages.h"
#include "profana/reporters/number_format.h"

namespace profana::report {

struct TableOptions {
  int64_t row_limit = DefaultRowLimit(RowKind::kSums);  // -1: all rows
  std::optional<int> max_name_width = 55;               // nullopt: no truncation
  std::optional<int> max_src_width = 75;
  std::optional<int> max_shapes_width = 80;
  std::optional<std::string> header;
  bool top_level_only = false;
  bool profile_memory = false;  // show the memory columns
  // The trace was recorded with_flops: a "Total FLOPs" column, when some row has a count.
  bool with_flops = false;
  bool no_truncate = false;  // --no-truncate: never shorten, whatever the widths say
  // --memory-units: 2.x's table, or 1.13's (Kb/Mb, and at most five Source Location lines a row)
  MemoryUnits memory_units = MemoryUnits::kPyTorch2;
};

// The rows a table shows, in order: PyTorch stops at row_limit rows (-1: no limit), counting
// only top-level rows when top_level_only is set.
std::vector<size_t> ShownRows(const std::vector<passes::AverageRow>& rows, int64_t row_limit,
                              bool top_level_only);

std::string FormatTable(const StringPool& strings, const std::vector<passes::AverageRow>& rows,
                        const TableOptions& options);

// Python's len() and slicing count code points, not bytes.
size_t CodePointLength(std::string_view s);
std::string_view CodePointPrefix(std::string_view s, size_t n);
std::string_view CodePointSuffix(std::string_view s, size_t n);
// `s` cut to `width` code points, its last three "..." when cut (diff's and idle's names).
std::string TruncateName(const std::string& s, size_t width);

}  // namespace profana::report
