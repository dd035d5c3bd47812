// `profana diff BASE.pickle NEW.pickle`: two allocator snapshots compared (passes/memory/
// snapshot_diff.h) as text, the profana.memory-snapshot-diff/1 JSON document, or CSV (one row per
// figure and per changed allocation site). Formatting only.
#pragma once

#include <string>
#include <vector>

#include "profana/base/row_limit.h"
#include "profana/model/allocator_snapshot.h"
#include "profana/passes/memory/snapshot_diff.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

struct SnapshotDiffContext {
  const AllocatorSnapshot* base = nullptr;
  const AllocatorSnapshot* next = nullptr;
  std::string base_name, new_name;                      // as given on the command line
  int64_t row_limit = DefaultRowLimit(RowKind::kSums);  // site rows in text; negative: all
};

std::string FormatSnapshotDiffAs(OutputFormat format,
                                 const std::vector<passes::SnapshotDeviceDiff>& diffs,
                                 const SnapshotDiffContext& c);

}  // namespace profana::report
