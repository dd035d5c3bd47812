// The report of `profana collectives`: the collectives matched across ranks, the ones with the
// most waiting first (then the widest skew), with skew, transfer, wait and bandwidth; a
// straggler table per rank (the waiting it caused and suffered, how often it arrived last, its
// mean step); and the clock offsets applied. Text, Markdown, CSV and JSON (schema
// "profana.collectives/1", docs/json.md). Formatting only.
#pragma once

#include <string>
#include <vector>

#include "profana/base/row_limit.h"
#include "profana/job/collective_analysis.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

struct CollectivesReport {
  std::vector<std::string> inputs;
  std::vector<int64_t> ranks;
  const job::CollectivesResult* result = nullptr;
  int64_t calls = 0;  // communication kernels read, over every rank
  int64_t row_limit = DefaultRowLimit(RowKind::kRanked);  // collectives to show; -1: every one
};

std::string FormatCollectivesText(const CollectivesReport& r);
std::string FormatCollectivesMarkdown(const CollectivesReport& r);
// CSV holds one table, so it stays one header and its rows: the collectives, one row each, or
// the straggler table, one row per rank (a value that does not apply is an empty cell).
std::string FormatCollectivesCsv(const CollectivesReport& r);
std::string FormatStragglersCsv(const CollectivesReport& r);
std::string FormatCollectivesJson(const CollectivesReport& r);

// The report in `format` (text, markdown, csv or json): the one choice of printer. CSV holds one
// table: the collectives, or with `stragglers` the stragglers.
std::string FormatCollectivesAs(OutputFormat format, const CollectivesReport& r, bool stragglers);

}  // namespace profana::report
