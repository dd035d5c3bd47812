#include "profana/reporters/job_table_reporter.h"

#include <algorithm>
#include <utility>

#include "fmt/format.h"
#include "profana/base/terminal_text.h"

namespace profana::report {

std::string FormatRowsAs(OutputFormat format, const StringPool& strings,
                         const std::vector<passes::AverageRow>& rows, TableOptions table,
                         bool profile_memory, const RowsContext& context) {
  table.row_limit = context.row_limit;
  table.top_level_only = context.top_level_only;
  if (format == OutputFormat::kText) {
    table.profile_memory = profile_memory;
    if (table.no_truncate)
      table.max_name_width = table.max_src_width = table.max_shapes_width = std::nullopt;
    return FormatTable(strings, rows, table);
  }
  std::vector<size_t> shown = ShownRows(rows, table.row_limit, table.top_level_only);
  if (format == OutputFormat::kCsv) return FormatRowsCsv(strings, rows, shown);
  return FormatRowsJson(strings, rows, shown, context);
}

namespace {

// The sources' format, or "mixed" when they differ.
std::string FormatOf(const job::RankSummary& summary) {
  std::string format = summary.sources.empty() ? "" : summary.sources.front().format;
  for (const job::SourceInfo& src : summary.sources)
    if (src.format != format) format = "mixed";
  return format;
}

}  // namespace

std::string FormatJobTable(OutputFormat format, const std::vector<job::RankSummary>& parts,
                           bool by_rank, const std::vector<std::string>& inputs,
                           const TableOptions& table, const RowsContext& options) {
  RowsContext context = options;
  context.input = fmt::format("{}", fmt::join(inputs, " "));
  for (const job::RankSummary& s : parts)
    for (const job::SourceInfo& src : s.sources) context.ranks.push_back(src.rank);
  std::sort(context.ranks.begin(), context.ranks.end());
  context.ranks.erase(std::unique(context.ranks.begin(), context.ranks.end()), context.ranks.end());
  std::string text;
  bool json_array = by_rank && format == OutputFormat::kJson;
  if (json_array) text += "[\n";
  for (size_t i = 0; i < parts.size(); ++i) {
    const job::RankSummary& s = parts[i];
    RowsContext c = context;
    std::string title;
    if (by_rank) {
      c.input = s.sources.front().path;
      c.ranks.clear();
      c.rank = s.rank();
      title = fmt::format("{}rank {}: {}", i ? "\n" : "", c.rank, Printable(c.input));
    } else {
      title = fmt::format("{} rank{} ({}), summed", c.ranks.size(), c.ranks.size() == 1 ? "" : "s",
                          job::FormatRankList(c.ranks));
    }
    c.format = FormatOf(s);
    TableOptions shown = table;
    shown.with_flops = s.with_flops;
    std::string part = FormatRowsAs(format, s.strings, s.rows, shown, s.has_memory_records, c);
    if (format == OutputFormat::kText) {
      text += title + "\n";
    } else if (format == OutputFormat::kCsv && i) {
      // One CSV: the header once, then every rank's rows (the rank is not a column: use json).
      part.erase(0, part.find('\n') + 1);
    } else if (json_array && i) {
      text += ",\n";
    }
    text += part;
  }
  if (json_array) text += "]\n";
  return text;
}

}  // namespace profana::report
