// How many rows a report shows unless -n says (--row-limit): one rule for every command and its
// report (docs/commands.md, "One vocabulary"), by what the rows are.
#pragma once

#include <cstdint>

namespace profana {

enum class RowKind : uint8_t {
  // Rows that each sum many events (table, diff, kernels): 100, as PyTorch's
  // table(row_limit=100).
  kSums,
  // A ranked list of single instances (idle's gaps, collectives, advise's findings,
  // critical-path's events, memory's grouped lists): its top 10.
  kRanked,
  // optimizable: PyTorch's BasicEvaluation.get_optimizable_events(length=1).
  kOptimizable,
};

constexpr int64_t DefaultRowLimit(RowKind kind) {
  switch (kind) {
    case RowKind::kSums:
      return 100;
    case RowKind::kRanked:
      return 10;
    case RowKind::kOptimizable:
      return 1;
  }
  return 100;
}

}  // namespace profana
