#include "profana/run/sql.h"

#include "fmt/format.h"
#include "profana/job/analysed_traces.h"
#include "profana/reporters/sql/sql_query.h"
#include "profana/reporters/sql/sql_writer.h"
#include "profana/run/command_load.h"

namespace profana::run {

Status RunSql(const SqlArgs& a, Session& session) {
  if (a.inputs.size() < 2)
    return Status(ErrorCode::kInvalidArgument,
                  "sql: give a trace (or a database, a directory) and then the query");
  std::vector<std::string> inputs(a.inputs.begin(), a.inputs.end() - 1);
  const std::string& query = a.inputs.back();
  std::string shown = inputs.size() == 1 ? inputs[0] : fmt::format("{}", fmt::join(inputs, " "));
  // One open tells a database profana wrote (which SQLite opens by its path) from a trace, a
  // summary or a job, and is the file AnalyseInputs reads.
  job::SniffedInputs sniffed = job::SniffInputs(inputs);
  if (std::shared_ptr<InputFile> opened = sniffed.opened();
      opened && report::IsProfanaDatabase(*opened)) {
    session.Read(inputs[0]);
    PROFANA_ASSIGN_OR_RETURN(report::SqliteHandle db, report::OpenProfanaDatabase(inputs[0]));
    PROFANA_ASSIGN_OR_RETURN(report::SqlQueryResult result, report::RunSqlQuery(db.get(), query));
    return session.Emit(report::FormatSqlResult(result, a.common.format, shown, query));
  }
  PROFANA_ASSIGN_OR_RETURN(std::unique_ptr<report::SqlDatabaseWriter> writer,
                           report::SqlDatabaseWriter::Create(""));
  std::vector<job::LoadNote> notes;
  Result<std::vector<std::string>> read =
      job::AnalyseInputs(inputs, std::move(sniffed), LoadRequestWithProgress(a.common, session),
                         a.common.link, writer.get(), &notes);
  session.Notes(notes);
  PROFANA_RETURN_IF_ERROR(read.status());
  session.Read(*read);
  PROFANA_RETURN_IF_ERROR(writer->Finish());
  PROFANA_ASSIGN_OR_RETURN(report::SqlQueryResult result,
                           report::RunSqlQuery(writer->handle(), query));
  return session.Emit(report::FormatSqlResult(result, a.common.format, shown, query));
}

}  // namespace profana::run
