// profana sql: one SQL query over a trace (or a job) as a database of profana's schema
// (docs/sql.md), printed as a text table, CSV, Markdown or JSON. A database that `convert` wrote
// is queried as it is, read-only; a trace is written into a temporary database first.
#include "profana/commands/commands.h"
#include "profana/job/analysed_traces.h"
#include "profana/reporters/sql/sql_query.h"
#include "profana/reporters/sql/sql_writer.h"

namespace profana::app {
namespace {

struct SqlArgs {
  CommonOptions common;
  std::vector<std::string> inputs;  // the traces, then the query
};

Status RunSql(const SqlArgs& a, Context& ctx) {
  if (a.inputs.size() < 2)
    return Status(ErrorCode::kInvalidArgument,
                  "sql: give a trace (or a database, a directory) and then the query");
  std::vector<std::string> inputs(a.inputs.begin(), a.inputs.end() - 1);
  const std::string& query = a.inputs.back();
  std::string shown = inputs.size() == 1 ? inputs[0] : fmt::format("{}", fmt::join(inputs, " "));
  if (inputs.size() == 1 && report::IsProfanaDatabase(inputs[0])) {
    ctx.inputs.push_back(inputs[0]);
    PROFANA_ASSIGN_OR_RETURN(report::SqliteHandle db, report::OpenProfanaDatabase(inputs[0]));
    PROFANA_ASSIGN_OR_RETURN(report::SqlQueryResult result, report::RunSqlQuery(db.get(), query));
    return Emit(report::FormatSqlResult(result, a.common.format, shown, query), a.common, ctx);
  }
  PROFANA_ASSIGN_OR_RETURN(std::unique_ptr<report::SqlDatabaseWriter> writer,
                           report::SqlDatabaseWriter::Create(""));
  std::vector<job::LoadNote> notes;
  Result<std::vector<std::string>> read = job::AnalyseInputs(
      inputs, LoadRequestWithProgress(a.common, ctx), a.common.link, writer.get(), &notes);
  PrintNotes(notes, ctx);
  PROFANA_RETURN_IF_ERROR(read.status());
  ctx.inputs.insert(ctx.inputs.end(), read->begin(), read->end());
  PROFANA_RETURN_IF_ERROR(writer->Finish());
  PROFANA_ASSIGN_OR_RETURN(report::SqlQueryResult result,
                           report::RunSqlQuery(writer->handle(), query));
  return Emit(report::FormatSqlResult(result, a.common.format, shown, query), a.common, ctx);
}

}  // namespace

void RegisterSqlCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<SqlArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sql",
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
  SetRun(cmd, ctx, args, RunSql);
}

}  // namespace profana::app
