// The key-average rows of `profana table` in the format --format asks for, for one trace or for a
// whole job: the ranks summed under one title, or one block per rank (--by-rank): text blocks
// under "rank N: FILE" titles, one CSV with a single header, or a JSON array of documents.
#pragma once

#include <string>
#include <vector>

#include "profana/base/string_pool.h"
#include "profana/job/rank_summary.h"
#include "profana/passes/key_averages.h"
#include "profana/reporters/output_format.h"
#include "profana/reporters/rows_reporter.h"
#include "profana/reporters/table_reporter.h"

namespace profana::report {

// The rows as text (PyTorch's table; `profile_memory` shows the memory columns), CSV or JSON.
// `context` names the input and the options the rows were made with (its row limit and
// top-level-only apply to `table` too).
std::string FormatRowsAs(OutputFormat format, const StringPool& strings,
                         const std::vector<passes::AverageRow>& rows, TableOptions table,
                         bool profile_memory, const RowsContext& context);

// A whole job's rows: `parts` holds the combined summary, or one summary per rank with
// `by_rank`, each with its rows sorted; `inputs` as given. `options`: what the rows were made
// with. Text: each block under its title ("3 ranks (0-2), summed",
// "rank 2: FILE"), a blank line between blocks; CSV: the header once; JSON: one document, or an
// array of one per rank.
std::string FormatJobTable(OutputFormat format, const std::vector<job::RankSummary>& parts,
                           bool by_rank, const std::vector<std::string>& inputs,
                           const TableOptions& table, const RowsContext& options);

}  // namespace profana::report
