// The table's rows for scripts: JSON (schema "profana.table/1", docs/json.md) and CSV, with
// plain numbers (times in microseconds, memory in bytes). The same rows the text table shows.
#pragma once

#include <string>
#include <vector>

#include "profana/base/row_limit.h"
#include "profana/base/string_pool.h"
#include "profana/passes/key_averages.h"

namespace profana::report {

struct RowsContext {
  std::string input;   // file name as given
  std::string format;  // the input's format name; a job's sources' own, or "mixed" when they differ
  passes::SortKey sort = passes::SortKey::kNone;  // shown by its canonical PyTorch name
  passes::KeyAverageOptions keys;
  bool raw = false;
  bool top_level_only = false;
  int64_t row_limit = DefaultRowLimit(RowKind::kSums);
  // Several traces combined (a whole job): their ranks, written as "ranks" after "format" (and
  // "rank" for one rank of a --by-rank report). Empty for a single trace.
  std::vector<int64_t> ranks;
  int64_t rank = -1;
};

// A row's input shapes as the table and its rows show them: "[]" when it has none.
std::string InputShapesText(const StringPool& strings, const passes::AverageRow& row);

std::string FormatRowsJson(const StringPool& strings, const std::vector<passes::AverageRow>& rows,
                           const std::vector<size_t>& shown, const RowsContext& context);
std::string FormatRowsCsv(const StringPool& strings, const std::vector<passes::AverageRow>& rows,
                          const std::vector<size_t>& shown);

}  // namespace profana::report
