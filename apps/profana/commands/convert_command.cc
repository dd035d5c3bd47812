// profana convert: any trace to profana's native file (.pfa), its text twin (.txt), Chrome-trace
// JSON (.json, .json.gz), or a SQLite database (.sqlite; a directory or glob too: one database
// for the job). The output format follows the extension unless --to names it.
#include "fmt/format.h"
#include "profana/base/gzip_writer.h"
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/io/convert_target.h"
#include "profana/job/analysed_traces.h"
#include "profana/job/annotate_input.h"
#include "profana/job/convert_trace.h"
#include "profana/reporters/analysis_overlay.h"
#include "profana/reporters/sql/sql_writer.h"

namespace profana::app {
namespace {

struct ConvertArgs {
  CommonOptions common;
  std::string file;
  std::string to;
  bool no_index = false;
  bool annotate = false;
};

// The trace's own JSON written back with the analyses as tracks and the critical path marked.
Status ConvertAnnotated(const ConvertArgs& a, const std::string& to, Context& ctx) {
  if (to != "json" && to != "json.gz")
    return Status(ErrorCode::kInvalidArgument,
                  "convert: --annotate writes a Chrome trace: -o FILE.json or FILE.json.gz");
  ctx.inputs.push_back(a.file);
  std::vector<job::LoadNote> notes;
  Result<std::unique_ptr<job::AnnotatedInput>> read = job::LoadAnnotatedInput(
      a.file, LoadRequestWithProgress(a.common, ctx), a.common.link, &notes);
  PrintNotes(notes, ctx);
  PROFANA_RETURN_IF_ERROR(read.status());
  const job::AnnotatedInput& in = **read;
  std::string bytes =
      report::WriteAnnotatedTrace(in.file.bytes.view(), in.file.events, in.trace, in.events);
  if (to == "json.gz") {
    PROFANA_ASSIGN_OR_RETURN(bytes, GzipBytes(bytes));
  }
  return Emit(std::move(bytes), a.common, ctx);
}

// The database is written beside -o FILE and renamed into place when complete.
Status ConvertToDatabase(const ConvertArgs& a, Context& ctx) {
  if (a.common.output.empty() || a.common.output == "-")
    return Status(ErrorCode::kInvalidArgument,
                  "convert: a database is written to a file: name it with -o FILE.sqlite");
  Stopwatch clock;
  PROFANA_ASSIGN_OR_RETURN(std::unique_ptr<report::SqlDatabaseWriter> writer,
                           report::SqlDatabaseWriter::Create(a.common.output));
  std::vector<job::LoadNote> notes;
  Result<std::vector<std::string>> read = job::AnalyseInputs(
      {a.file}, LoadRequestWithProgress(a.common, ctx), a.common.link, writer.get(), &notes);
  PrintNotes(notes, ctx);
  PROFANA_RETURN_IF_ERROR(read.status());
  ctx.inputs.insert(ctx.inputs.end(), read->begin(), read->end());
  PROFANA_RETURN_IF_ERROR(RefuseToOverwriteInput(a.common, ctx));
  Stopwatch indexes;
  PROFANA_RETURN_IF_ERROR(writer->Finish());
  ctx.log.Debug("convert: indexes and views in {:.1f} ms; database written in {:.1f} ms",
                indexes.Lap(), clock.Lap());
  return Status::Ok();
}

Status RunConvert(const ConvertArgs& a, Context& ctx) {
  std::string to = a.to.empty() ? io::ConvertTargetFromName(a.common.output) : a.to;
  if (to.empty())
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("convert: cannot tell the output format from \"{}\": name it "
                              "*.pfa, *.txt, *.json, *.json.gz or *.sqlite, or say --to "
                              "native|text|json|json.gz|sqlite",
                              a.common.output.empty() ? "standard output" : a.common.output));
  if (to == "sqlite") return ConvertToDatabase(a, ctx);
  if (a.annotate) return ConvertAnnotated(a, to, ctx);
  ctx.inputs.push_back(a.file);
  std::vector<job::LoadNote> notes;
  Result<std::string> bytes = job::ConvertTrace(a.file, LoadRequestWithProgress(a.common, ctx), to,
                                                /*index=*/!a.no_index, &notes);
  PrintNotes(notes, ctx);
  PROFANA_RETURN_IF_ERROR(bytes.status());
  return Emit(std::move(*bytes), a.common, ctx);
}

}  // namespace

void RegisterConvertCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<ConvertArgs>();
  CLI::App* cmd = app.add_subcommand("convert",
                                     "Convert a trace: to profana's native file (.pfa, fast to "
                                     "load), its text twin (.txt), Chrome-trace JSON "
                                     "(.json, .json.gz) for Perfetto and chrome://tracing, or a "
                                     "SQLite database (.sqlite: docs/sql.md)");
  cmd->add_option("FILE", args->file,
                  "Trace file (any format profana reads); - reads standard input. A directory or "
                  "a glob: a job, into one database")
      ->required();
  cmd->add_option("--to", args->to, "Output format; default: from the -o file's extension")
      ->check(OneOf("--to", "format", {"native", "text", "json", "json.gz", "sqlite"}));
  CommonOptions& o = args->common;
  o.data_output = true;
  o.keeps_flows = true;
  cmd->add_flag("--annotate", args->annotate,
                "Chrome JSON: write the trace's own JSON back (every field kept) with the analyses "
                "as tracks (steps, GPU idle gaps by cause, queue depth and memory counters) and "
                "the critical path marked, for Perfetto and chrome://tracing");
  cmd->add_flag("--no-index", args->no_index,
                "Native files: leave out the function event index (about 40 % smaller; every "
                "analysis then rebuilds the op tree and sums the CUDA totals)");
  cmd->add_option("-o,--output", o.output,
                  "Write to FILE (its extension picks the format) instead of standard output");
  cmd->add_flag("--strict", o.strict, "Treat damaged events (counted warnings) as fatal: exit 2");
  cmd->add_flag("-v,--verbose", o.verbose, "Print diagnostics of the import on standard error");
  cmd->add_flag("-q,--quiet", o.quiet, "Do not print warnings");
  AddMaxMemoryOption(cmd, &o);
  cmd->footer(
      "What is kept: what profana analyses. Every duration event (name, category, thread, times, "
      "External id, correlation, Sequence number, Fwd thread id, Input Dims, Call stack, device), "
      "[memory] records, flow events, thread and process names, and the trace's rank, world size, "
      "backend and device names. Everything else is dropped, also when writing JSON again: other "
      "args (grid, block, registers per thread, shared memory, occupancy, memcpy bytes, Module "
      "Hierarchy, Input type, ...), instant events other than [memory] (only counted), counter "
      "events and device properties other than the name. Keep the original for those "
      "(docs/native-format.md, \"What a conversion keeps\").");
  SetRun(cmd, ctx, args, RunConvert);
}

}  // namespace profana::app
