// profana table: PyTorch's key_averages().table() from a trace file.
#include <optional>

#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/passes/function_events.h"
#include "profana/passes/key_averages.h"
#include "profana/reporters/rows_reporter.h"
#include "profana/reporters/table_reporter.h"

namespace profana::app {
namespace {

struct TableArgs {
  CommonOptions common;
  std::string file;
  passes::SortKey sort = passes::SortKey::kNone;
  passes::KeyAverageOptions keys;
  report::TableOptions table;  // the widths are set unless --no-truncate
  bool raw = false;
  bool no_truncate = false;
};

Status RunTable(const TableArgs& a, Context& ctx) {
  if (a.raw && (a.keys.group_by_input_shape || a.keys.group_by_stack_n > 0))
    return Status(ErrorCode::kInvalidArgument, "--raw lists single events: it cannot be grouped");
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, a.common, ctx, &index));
  Stopwatch clock;
  passes::FunctionEventList events = BuildEventsForCommand(trace, index, a.common, ctx);
  ctx.log.Debug("function events: {} in {:.1f} ms (peak RSS {:.0f} MB)", events.size(), clock.Lap(),
                PeakRssMb());
  std::vector<passes::AverageRow> rows = a.raw ? passes::RawEventRows(trace, events)
                                               : passes::ComputeKeyAverages(trace, events, a.keys);
  passes::SortRows(&rows, a.sort);
  ctx.log.Debug("key averages: {} rows in {:.1f} ms (peak RSS {:.0f} MB)", rows.size(), clock.Lap(),
                PeakRssMb());
  if (a.common.format == OutputFormat::kText) {
    report::TableOptions options = a.table;
    if (a.no_truncate)
      options.max_name_width = options.max_src_width = options.max_shapes_width = std::nullopt;
    options.profile_memory = events.has_memory_records;
    return Emit(report::FormatTable(trace, rows, options), a.common, ctx);
  }
  std::vector<size_t> shown = report::ShownRows(rows, a.table.row_limit, a.table.top_level_only);
  if (a.common.format == OutputFormat::kCsv)
    return Emit(report::FormatRowsCsv(trace, rows, shown), a.common, ctx);
  report::RowsContext context{a.file,           a.sort, a.keys, a.raw, a.table.top_level_only,
                              a.table.row_limit};
  return Emit(report::FormatRowsJson(trace, rows, shown, context), a.common, ctx);
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
  cmd->add_option("FILE", args->file,
                  "Trace file (Chrome-trace JSON, plain or gzip); - reads standard input")
      ->required();
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
