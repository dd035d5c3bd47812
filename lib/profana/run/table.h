// profana table: PyTorch's key_averages().table() from a trace file.
#pragma once

#include <optional>
#include <string>

#include "profana/reporters/rows_reporter.h"
#include "profana/reporters/table_reporter.h"
#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct TableArgs {
  CommonOptions common;
  JobArgs job;
  report::RowsContext rows;    // what the rows are made of: sort, grouping, raw, row limit
  report::TableOptions table;  // the text table's widths (unless --no-truncate) and header
};

Status RunTable(const TableArgs& args, Session& session);

}  // namespace profana::run
