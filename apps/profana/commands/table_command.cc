// profana table: PyTorch's key_averages().table() from a trace file.
#include <optional>

#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/job/diff_job.h"
#include "profana/job/trace_table.h"
#include "profana/passes/function_events.h"
#include "profana/passes/key_averages.h"
#include "profana/reporters/job_table_reporter.h"

namespace profana::app {
namespace {

struct TableArgs {
  CommonOptions common;
  JobArgs job;
  report::RowsContext rows;    // what the rows are made of: sort, grouping, raw, row limit
  report::TableOptions table;  // the text table's widths (unless --no-truncate) and header
};

// Several traces (a directory, a glob, --ranks, --by-rank): key averages per rank, summed per key
// over the ranks (or one block per rank), from each rank's summary.
Status RunTableJob(const TableArgs& a, std::shared_ptr<InputFile> opened, Context& ctx) {
  if (a.rows.raw)
    return Status(ErrorCode::kInvalidArgument,
                  "--raw lists the events of one trace: it cannot combine several");
  job::JobRequest request = JobRequestFor(a.job, a.common, std::move(opened));
  std::vector<job::LoadNote> notes;
  PROFANA_ASSIGN_OR_RETURN(
      job::JobRun run,
      WithNotes(job::RunTableJob(request, a.rows.keys, /*steps=*/false, &notes), notes, ctx));
  PROFANA_ASSIGN_OR_RETURN(std::vector<job::RankSummary> parts,
                           job::TableParts(std::move(run.job), a.job.by_rank, a.rows.sort));
  return Emit(report::FormatJobTable(a.common.format, std::move(parts), a.job.by_rank, a.job.inputs,
                                     a.table, a.rows),
              a.common, ctx);
}

Status RunTable(const TableArgs& a, Context& ctx) {
  if (a.rows.raw && (a.rows.keys.group_by_input_shape || a.rows.keys.group_by_stack_n > 0))
    return Status(ErrorCode::kInvalidArgument, "--raw lists single events: it cannot be grouped");
  job::SniffedInputs sniffed = SniffJobArgs(a.job);
  if (!sniffed.single) return RunTableJob(a, std::move(sniffed.summary), ctx);
  std::optional<FunctionEventIndex> index;
  CommonOptions common = a.common;
  common.unread = job::TableUnread(a.rows.keys, a.rows.raw);
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(*sniffed.single, common, ctx, &index));
  Stopwatch clock;
  PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                           BuildEventsForCommand(trace, index, a.job.inputs[0], common, ctx));
  ctx.log.Debug("function events: {} in {:.1f} ms (peak RSS {:.0f} MB)", events.size(), clock.Lap(),
                PeakRssMb());
  std::vector<job::LoadNote> notes;
  std::vector<passes::AverageRow> rows = job::TraceTableRows(
      trace, events, a.job.inputs[0], a.rows.raw, a.rows.keys, a.rows.sort, &notes);
  PrintNotes(notes, ctx);
  ctx.log.Debug("key averages: {} rows in {:.1f} ms (peak RSS {:.0f} MB)", rows.size(), clock.Lap(),
                PeakRssMb());
  report::RowsContext context = a.rows;
  context.input = a.job.inputs[0];
  context.format = TraceFormatName(trace.metadata.format);
  report::TableOptions table = a.table;
  table.with_flops = trace.metadata.with_flops;
  return Emit(report::FormatRowsAs(a.common.format, trace.strings, rows, table,
                                   events.has_memory_records, context),
              a.common, ctx);
}

}  // namespace

void RegisterTableCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<TableArgs>();
  CLI::App* cmd = app.add_subcommand(
      "table", "Print the table PyTorch's prof.key_averages().table() prints, from a trace file");
  AddJobInputs(cmd, &args->job, "Traces (summed over ranks when several)", true);
  AddNamedOption(cmd, "--sort", &args->rows.sort, passes::ParseSortKey, passes::SortKeyNames(),
                 passes::SortKeyHelp());
  AddRowLimitOption(cmd, &args->rows.row_limit, RowKind::kSums, INT64_MIN,
                    "Rows to print; -1 for all");
  cmd->add_flag("--group-by-input-shape", args->rows.keys.group_by_input_shape,
                "One row per (name, input shapes), like key_averages(group_by_input_shape=True)");
  cmd->add_option("--group-by-stack", args->rows.keys.group_by_stack_n,
                  "One row per (name, top N stack frames), like key_averages(group_by_stack_n=N)")
      ->check(WholeNumber<int>("--group-by-stack", 0).description(""));
  cmd->add_flag("--top-level-only", args->rows.top_level_only,
                "Only rows whose first event has no parent op");
  cmd->add_option_function<std::string>(
      "--header", [args](const std::string& h) { args->table.header = h; },
      "A title line above the table");
  AddOptionalInt(cmd, "--max-name-width", &args->table.max_name_width, "Widest Name column");
  AddOptionalInt(cmd, "--max-src-width", &args->table.max_src_width,
                 "Widest Source Location column");
  AddOptionalInt(cmd, "--max-shapes-width", &args->table.max_shapes_width,
                 "Widest Input Shapes column");
  cmd->add_flag("--raw", args->rows.raw,
                "One row per event, un-averaged (function_events.table())");
  cmd->add_flag("--no-truncate", args->table.no_truncate,
                "Never shorten names, shapes or source locations");
  cmd->add_option_function<std::string>(
         "--memory-units",
         [args](const std::string& v) {
           args->table.memory_units =
               v == "1.13" ? report::MemoryUnits::kPyTorch113 : report::MemoryUnits::kPyTorch2;
         },
         "Print the table as PyTorch 2.x does (2: KB, MB, GB, B, every frame of a row's stack) or "
         "as 1.13 did (1.13: Kb, Mb, Gb, b, at most five frames)")
      ->check(OneOf("--memory-units", "version", {"2", "1.13"}))
      ->default_str("2");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common,
                   {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv});
  SetRun(cmd, ctx, args, RunTable);
}

}  // namespace profana::app
