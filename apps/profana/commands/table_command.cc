// profana table: PyTorch's key_averages().table() from a trace file.
#include <optional>

#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/job/rank_summary.h"
#include "profana/passes/function_events.h"
#include "profana/passes/key_averages.h"
#include "profana/reporters/rows_reporter.h"
#include "profana/reporters/table_reporter.h"

namespace profana::app {
namespace {

struct TableArgs {
  CommonOptions common;
  JobArgs job;
  passes::SortKey sort = passes::SortKey::kNone;
  passes::KeyAverageOptions keys;
  report::TableOptions table;  // the widths are set unless --no-truncate
  bool raw = false;
  bool no_truncate = false;
};

// The rows as --format asks. `context` names the input (and the ranks of a whole job); the
// options the rows were made with are filled in here.
std::string FormatRows(const TableArgs& a, const Trace& trace,
                       const std::vector<passes::AverageRow>& rows, bool profile_memory,
                       report::RowsContext context) {
  if (a.common.format == OutputFormat::kText) {
    report::TableOptions options = a.table;
    if (a.no_truncate)
      options.max_name_width = options.max_src_width = options.max_shapes_width = std::nullopt;
    options.profile_memory = profile_memory;
    return report::FormatTable(trace, rows, options);
  }
  std::vector<size_t> shown = report::ShownRows(rows, a.table.row_limit, a.table.top_level_only);
  if (a.common.format == OutputFormat::kCsv) return report::FormatRowsCsv(trace, rows, shown);
  context.sort = a.sort;
  context.keys = a.keys;
  context.raw = a.raw;
  context.top_level_only = a.table.top_level_only;
  context.row_limit = a.table.row_limit;
  return report::FormatRowsJson(trace, rows, shown, context);
}

Status RunTableJob(const TableArgs& a, Context& ctx);

Status RunTable(const TableArgs& a, Context& ctx) {
  if (a.raw && (a.keys.group_by_input_shape || a.keys.group_by_stack_n > 0))
    return Status(ErrorCode::kInvalidArgument, "--raw lists single events: it cannot be grouped");
  if (!IsSingleTraceRun(a.job)) return RunTableJob(a, ctx);
  const std::string& file = a.job.inputs[0];
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(file, a.common, ctx, &index));
  Stopwatch clock;
  passes::FunctionEventList events = BuildEventsForCommand(trace, index, a.common, ctx);
  ctx.log.Debug("function events: {} in {:.1f} ms (peak RSS {:.0f} MB)", events.size(), clock.Lap(),
                PeakRssMb());
  std::vector<passes::AverageRow> rows = a.raw ? passes::RawEventRows(trace, events)
                                               : passes::ComputeKeyAverages(trace, events, a.keys);
  passes::SortRows(&rows, a.sort);
  ctx.log.Debug("key averages: {} rows in {:.1f} ms (peak RSS {:.0f} MB)", rows.size(), clock.Lap(),
                PeakRssMb());
  report::RowsContext context;
  context.input = file;
  return Emit(FormatRows(a, trace, rows, events.has_memory_records, std::move(context)), a.common,
              ctx);
}

// Several traces (a directory, a glob, --ranks, --by-rank): key averages per rank, summed per key
// over the ranks (or one block per rank), from each rank's summary.
Status RunTableJob(const TableArgs& a, Context& ctx) {
  if (a.raw)
    return Status(ErrorCode::kInvalidArgument,
                  "--raw lists the events of one trace: it cannot combine several");
  job::SummaryOptions so;
  so.table = true;
  so.key_averages = a.keys;
  PROFANA_ASSIGN_OR_RETURN(
      job::JobSummary job,
      LoadJob(
          a.job, a.common, ctx,
          [&](const Trace& t, const passes::FunctionEventList& e, const std::string& p) {
            return job::SummarizeRank(t, e, p, so);
          },
          [&](job::RankSummary* s, const std::string& path) {
            if (a.keys.group_by_stack_n > 0)
              return Status(ErrorCode::kInvalidArgument,
                            fmt::format("{}: a summary keeps no stacks: --group-by-stack "
                                        "needs the traces",
                                        path));
            if (a.keys.group_by_input_shape) {
              s->rows = std::move(s->shape_rows);
              s->row_origin = std::move(s->shape_row_origin);
            }
            return Status::Ok();
          }));
  std::vector<int64_t> ranks = job.RankList();
  std::string text;
  auto block = [&](job::RankSummary s, const std::string& title, report::RowsContext context) {
    passes::SortRows(&s.rows, a.sort);
    std::string format = s.sources.empty() ? "" : s.sources.front().format;
    for (const job::SourceInfo& src : s.sources)
      if (src.format != format) format = "mixed";
    Trace names = StringsOnlyTrace(std::move(s.strings), format);
    if (a.common.format == OutputFormat::kText) text += title + "\n";
    text += FormatRows(a, names, s.rows, s.has_memory_records, std::move(context));
  };
  if (!a.job.by_rank) {
    report::RowsContext context;
    context.input = fmt::format("{}", fmt::join(a.job.inputs, " "));
    context.ranks = ranks;
    block(job.Combine(),
          fmt::format("{} rank{} ({}), summed", ranks.size(), ranks.size() == 1 ? "" : "s",
                      job::FormatRankList(ranks)),
          std::move(context));
    return Emit(std::move(text), a.common, ctx);
  }
  bool json = a.common.format == OutputFormat::kJson;
  if (json) text += "[\n";
  for (size_t i = 0; i < job.ranks.size(); ++i) {
    job::RankSummary& s = job.ranks[i];
    report::RowsContext context;
    context.input = s.sources.front().path;
    context.rank = s.rank();
    std::string title = fmt::format("{}rank {}: {}", i ? "\n" : "", s.rank(), context.input);
    if (a.common.format == OutputFormat::kCsv && i) {
      // One CSV: the header once, then every rank's rows (the rank is not a column: use json).
      std::string part;
      std::swap(part, text);
      block(std::move(s), title, std::move(context));
      part += text.substr(text.find('\n') + 1);
      text = std::move(part);
      continue;
    }
    if (json && i) text += ",\n";
    block(std::move(s), title, std::move(context));
  }
  if (json) text += "]\n";
  return Emit(std::move(text), a.common, ctx);
}

// An int option that sets an optional<int> of the table's options, showing its default.
void AddWidth(CLI::App* cmd, const char* name, std::optional<int>* width, const char* help) {
  cmd->add_option_function<int>(
         name, [width](int w) { *width = w; }, help)
      ->default_str(std::to_string(**width));
}

}  // namespace

void RegisterTableCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<TableArgs>();
  CLI::App* cmd = app.add_subcommand(
      "table", "Print the table PyTorch's prof.key_averages().table() prints, from a trace file");
  AddJobInputs(cmd, &args->job, "Traces (summed over ranks when several)", true);
  std::string names = fmt::format("{}", fmt::join(passes::SortKeyNames(), ", "));
  AddNamedOption(cmd, "--sort", &args->sort, passes::ParseSortKey, "key", names,
                 "Sort rows by this attribute, descending (cpu_time, cuda_time, cpu_time_total, "
                 "cuda_time_total, self_cpu_time_total, self_cuda_time_total, cpu_memory_usage, "
                 "cuda_memory_usage, self_cpu_memory_usage, self_cuda_memory_usage, count; short "
                 "aliases self_cpu, self_cuda, cpu_total, cuda_total, cpu_mem, self_cpu_mem, "
                 "cuda_mem, self_cuda_mem, calls)");
  cmd->add_option("--row-limit", args->table.row_limit, "Rows to print; -1 for all")
      ->default_val(100)
      ->check(WholeNumber("--row-limit", INT64_MIN));
  cmd->add_flag("--group-by-input-shape", args->keys.group_by_input_shape,
                "One row per (name, input shapes), like key_averages(group_by_input_shape=True)");
  cmd->add_option("--group-by-stack", args->keys.group_by_stack_n,
                  "One row per (name, top N stack frames), like key_averages(group_by_stack_n=N)")
      ->check(WholeNumber<int>("--group-by-stack", 0).description(""));
  cmd->add_flag("--top-level-only", args->table.top_level_only,
                "Only rows whose first event has no parent op");
  cmd->add_option_function<std::string>(
      "--header", [args](const std::string& h) { args->table.header = h; },
      "A title line above the table");
  AddWidth(cmd, "--max-name-width", &args->table.max_name_width, "Widest Name column");
  AddWidth(cmd, "--max-src-width", &args->table.max_src_width, "Widest Source Location column");
  AddWidth(cmd, "--max-shapes-width", &args->table.max_shapes_width, "Widest Input Shapes column");
  cmd->add_flag("--raw", args->raw, "One row per event, un-averaged (function_events.table())");
  cmd->add_flag("--no-truncate", args->no_truncate,
                "Never shorten names, shapes or source locations");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common,
                   {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv});
  SetRun(cmd, ctx, args, RunTable);
}

}  // namespace profana::app
