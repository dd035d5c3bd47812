// profana sql: one SQL query over a trace (or a job) as a database of profana's schema
// (docs/sql.md), printed as a text table, CSV, Markdown or JSON. A database that `convert` wrote
// is queried as it is, read-only; a trace is written into a temporary database first.
#pragma once

#include <string>

#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

struct SqlArgs {
  CommonOptions common;
  std::vector<std::string> inputs;  // the traces, then the query
};

Status RunSql(const SqlArgs& args, Session& session);

}  // namespace profana::run
