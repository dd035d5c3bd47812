#include "profana/run/convert.h"

#include "fmt/format.h"
#include "profana/base/gzip_writer.h"
#include "profana/io/convert_target.h"
#include "profana/job/analysed_traces.h"
#include "profana/job/annotate_input.h"
#include "profana/job/convert_trace.h"
#include "profana/reporters/analysis_overlay.h"
#include "profana/reporters/sql/sql_writer.h"
#include "profana/run/command_load.h"

namespace profana::run {
namespace {

// The trace's own JSON written back with the analyses as tracks and the critical path marked.
Status ConvertAnnotated(const ConvertArgs& a, const std::string& to, Session& session) {
  if (to != "json" && to != "json.gz")
    return Status(ErrorCode::kInvalidArgument,
                  "convert: --annotate writes a Chrome trace: -o FILE.json or FILE.json.gz");
  session.Read(a.file);
  std::vector<job::LoadNote> notes;
  Result<std::unique_ptr<job::AnnotatedInput>> read = job::LoadAnnotatedInput(
      a.file, LoadRequestWithProgress(a.common, session), a.common.link, &notes);
  session.Notes(notes);
  PROFANA_RETURN_IF_ERROR(read.status());
  const job::AnnotatedInput& in = **read;
  std::string bytes =
      report::WriteAnnotatedTrace(in.file.bytes.view(), in.file.events, in.trace, in.events);
  if (to == "json.gz") {
    PROFANA_ASSIGN_OR_RETURN(bytes, GzipBytes(bytes));
  }
  return session.Emit(std::move(bytes));
}

// The database is written beside -o FILE and renamed into place when complete.
Status ConvertToDatabase(const ConvertArgs& a, Session& session) {
  if (a.common.output.empty() || a.common.output == "-")
    return Status(ErrorCode::kInvalidArgument,
                  "convert: a database is written to a file: name it with -o FILE.sqlite");
  Stopwatch clock;
  PROFANA_ASSIGN_OR_RETURN(std::unique_ptr<report::SqlDatabaseWriter> writer,
                           report::SqlDatabaseWriter::Create(a.common.output));
  std::vector<job::LoadNote> notes;
  Result<std::vector<std::string>> read = job::AnalyseInputs(
      {a.file}, LoadRequestWithProgress(a.common, session), a.common.link, writer.get(), &notes);
  session.Notes(notes);
  PROFANA_RETURN_IF_ERROR(read.status());
  session.Read(*read);
  PROFANA_RETURN_IF_ERROR(session.RefuseToOverwriteInput());
  Stopwatch indexes;
  PROFANA_RETURN_IF_ERROR(writer->Finish());
  session.Debug("convert: indexes and views in {:.1f} ms; database written in {:.1f} ms",
                indexes.Lap(), clock.Lap());
  return Status::Ok();
}

}  // namespace

Status RunConvert(const ConvertArgs& a, Session& session) {
  std::string to = a.to.empty() ? io::ConvertTargetFromName(a.common.output) : a.to;
  if (to.empty())
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("convert: cannot tell the output format from \"{}\": name it "
                              "*.pfa, *.txt, *.json, *.json.gz or *.sqlite, or say --to "
                              "native|text|json|json.gz|sqlite",
                              a.common.output.empty() ? "standard output" : a.common.output));
  if (to == "sqlite") return ConvertToDatabase(a, session);
  if (a.annotate) return ConvertAnnotated(a, to, session);
  session.Read(a.file);
  std::vector<job::LoadNote> notes;
  Result<std::string> bytes =
      job::ConvertTrace(a.file, LoadRequestWithProgress(a.common, session), to,
                        /*index=*/!a.no_index, &notes);
  session.Notes(notes);
  PROFANA_RETURN_IF_ERROR(bytes.status());
  return session.Emit(std::move(*bytes));
}

}  // namespace profana::run
