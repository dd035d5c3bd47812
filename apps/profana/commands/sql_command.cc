// The options of `profana sql`; the run they make is lib/profana/run/sql.h.
#include "profana/commands/commands.h"
#include "profana/run/sql.h"

namespace profana::app {

void RegisterSqlCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::SqlArgs>();
  CLI::App* cmd =
      AddCommand(app, ctx, args, run::RunSql, "sql",
                 "Run one SQL query over a trace as a database (tables op, kernel, copy, runtime, "
                 "memory, step, ...; views key_averages, function_event: docs/sql.md)");
  cmd->add_option("INPUT QUERY", args->inputs,
                  "A trace, a database `profana convert` wrote (*.sqlite), or a job's traces (a "
                  "directory, a glob, several files: one database, a rank column); then one SQL "
                  "statement")
      ->required()
      ->expected(2, -1);
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(
      cmd, &args->common,
      {OutputFormat::kText, OutputFormat::kCsv, OutputFormat::kJson, OutputFormat::kMarkdown});
  cmd->footer(
      "The schema (tables, columns, views, example queries): docs/sql.md. To ask several "
      "questions of a large trace, write the database once (profana convert TRACE -o "
      "trace.sqlite) and query the file: profana sql trace.sqlite \"SELECT ...\", or sqlite3.");
}

}  // namespace profana::app
