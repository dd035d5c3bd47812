// The reports of `profana diff`: a text table (with colours on a terminal), Markdown for a pull
// request or a CI job summary, CSV, and JSON (schema "profana.diff/1", docs/json.md). Formatting
// only: the rows arrive computed and sorted by passes/trace_diff.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "profana/base/row_limit.h"
#include "profana/job/diff_job.h"
#include "profana/passes/trace_diff.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

struct DiffReportOptions {
  std::string base_name;  // file names as given
  std::string new_name;
  int64_t row_limit = DefaultRowLimit(RowKind::kSums);  // -1: every row
  bool color = false;  // ANSI colours: red for growth, green for shrinkage
  // Names in text and Markdown, as table's options: the widest name (unset: 48 in text, 100 in
  // Markdown), or never shortened (--no-truncate; the text column is as wide as the longest).
  std::optional<int> max_name_width;
  bool no_truncate = false;
  bool full_names = false;  // text and Markdown shorten kernel names unless set; JSON, CSV never
  // --by-rank: the rank of this block (a line above it in text and Markdown, "rank" in JSON, a
  // first column in CSV), and whether the CSV header is written (the first block only).
  std::optional<int64_t> rank;
  bool csv_header = true;
};

std::string FormatDiffText(const passes::TraceDiff& d, const DiffReportOptions& o);
std::string FormatDiffMarkdown(const passes::TraceDiff& d, const DiffReportOptions& o);
std::string FormatDiffCsv(const passes::TraceDiff& d, const DiffReportOptions& o);
std::string FormatDiffJson(const passes::TraceDiff& d, const DiffReportOptions& o);
// One of the four by format (text for any other).
std::string FormatDiffAs(OutputFormat format, const passes::TraceDiff& d,
                         const DiffReportOptions& o);

// "+1.234ms", "-56.000us": a signed time for a change.
std::string SignedTime(double us);
// "+12.3%", "-4.0%"; "new" when the base is 0 and the change is not.
std::string SignedPercent(double change, double base);

// --by-rank: one diff per rank, in rank order (`rank` of each), as one document: a JSON array,
// one CSV (the header once), or the text blocks one after another.
std::string FormatRankDiffsAs(OutputFormat format, const std::vector<job::RankDiff>& diffs,
                              DiffReportOptions o);

}  // namespace profana::report
