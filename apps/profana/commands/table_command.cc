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
  std::string sort_by;
  int64_t row_limit = 100;
  bool group_by_input_shape = false;
  int group_by_stack_n = 0;
  bool top_level_only = false;
  std::string header;
  bool has_header = false;
  int max_name_width = 55;
  int max_src_width = 75;
  int max_shapes_width = 80;
  bool raw = false;
  bool no_truncate = false;
};

Status RunTable(const TableArgs& a, Context& ctx) {
  passes::SortKey sort = passes::SortKey::kNone;
  if (!a.sort_by.empty()) passes::ParseSortKey(a.sort_by, &sort);
  if (a.raw && (a.group_by_input_shape || a.group_by_stack_n > 0))
    return Status(ErrorCode::kInvalidArgument, "--raw lists single events: it cannot be grouped");
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, a.common, ctx));
  Stopwatch clock;
  passes::FunctionEventList events = passes::BuildFunctionEvents(trace);
  ctx.log.Debug("function events: {} in {:.1f} ms (peak RSS {:.0f} MB)", events.size(), clock.Lap(),
                PeakRssMb());
  std::vector<passes::AverageRow> rows =
      a.raw
          ? passes::RawEventRows(trace, events)
          : passes::ComputeKeyAverages(trace, events, {a.group_by_input_shape, a.group_by_stack_n});
  passes::SortRows(&rows, sort);
  ctx.log.Debug("key averages: {} rows in {:.1f} ms (peak RSS {:.0f} MB)", rows.size(), clock.Lap(),
                PeakRssMb());

  if (a.common.format == OutputFormat::kText) {
    report::TableOptions options;
    options.row_limit = a.row_limit;
    if (a.no_truncate) {
      options.max_name_width = options.max_src_width = options.max_shapes_width = std::nullopt;
    } else {
      options.max_name_width = a.max_name_width;
      options.max_src_width = a.max_src_width;
      options.max_shapes_width = a.max_shapes_width;
    }
    if (a.has_header) options.header = a.header;
    options.top_level_only = a.top_level_only;
    options.profile_memory = events.has_memory_records;
    return Emit(report::FormatTable(trace, rows, options), a.common, ctx);
  }
  std::vector<size_t> shown = report::ShownRows(rows, a.row_limit, a.top_level_only);
  if (a.common.format == OutputFormat::kCsv)
    return Emit(report::FormatRowsCsv(trace, rows, shown), a.common, ctx);
  report::RowsContext context;
  context.input = a.file;
  if (sort != passes::SortKey::kNone) {
    // The canonical PyTorch name, even when an alias was given.
    for (std::string_view n : passes::SortKeyNames()) {
      passes::SortKey k;
      if (passes::ParseSortKey(n, &k) && k == sort) {
        context.sort_by = std::string(n);
        break;
      }
    }
  }
  context.group_by_input_shape = a.group_by_input_shape;
  context.group_by_stack_n = a.group_by_stack_n;
  context.raw = a.raw;
  context.top_level_only = a.top_level_only;
  context.row_limit = a.row_limit;
  return Emit(report::FormatRowsJson(trace, rows, shown, context), a.common, ctx);
}

}  // namespace

void RegisterTableCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<TableArgs>();
  CLI::App* cmd = app.add_subcommand(
      "table", "Print the table PyTorch's prof.key_averages().table() prints, from a trace file");
  cmd->add_option("FILE", args->file,
                  "Trace file (Chrome-trace JSON, plain or gzip); - reads standard input")
      ->required();
  std::string keys =
      "cpu_time, cuda_time, cpu_time_total, cuda_time_total, self_cpu_time_total, "
      "self_cuda_time_total, cpu_memory_usage, cuda_memory_usage, self_cpu_memory_usage, "
      "self_cuda_memory_usage, count; short aliases self_cpu, self_cuda, cpu_total, cuda_total, "
      "cpu_mem, self_cpu_mem, cuda_mem, self_cuda_mem, calls";
  std::string names;
  for (std::string_view n : passes::SortKeyNames())
    names += fmt::format("{}{}", names.empty() ? "" : ", ", n);
  cmd->add_option("--sort", args->sort_by, "Sort rows by this attribute, descending (" + keys + ")")
      ->check(Named("--sort", "key", names, [](const std::string& s) {
        passes::SortKey k;
        return passes::ParseSortKey(s, &k);
      }));
  cmd->add_option("--row-limit", args->row_limit, "Rows to print; -1 for all")
      ->default_val(100)
      ->check(WholeNumber("--row-limit", INT64_MIN));
  cmd->add_flag("--group-by-input-shape", args->group_by_input_shape,
                "One row per (name, input shapes), like key_averages(group_by_input_shape=True)");
  cmd->add_option("--group-by-stack", args->group_by_stack_n,
                  "One row per (name, top N stack frames), like key_averages(group_by_stack_n=N)")
      ->check(WholeNumber<int>("--group-by-stack", 0).description(""));
  cmd->add_flag("--top-level-only", args->top_level_only,
                "Only rows whose first event has no parent op");
  cmd->add_option("--header", args->header, "A title line above the table")
      ->each([args](const std::string&) { args->has_header = true; });
  cmd->add_option("--max-name-width", args->max_name_width, "Widest Name column")->default_val(55);
  cmd->add_option("--max-src-width", args->max_src_width, "Widest Source Location column")
      ->default_val(75);
  cmd->add_option("--max-shapes-width", args->max_shapes_width, "Widest Input Shapes column")
      ->default_val(80);
  cmd->add_flag("--raw", args->raw, "One row per event, un-averaged (function_events.table())");
  cmd->add_flag("--no-truncate", args->no_truncate,
                "Never shorten names, shapes or source locations");
  AddCommonOptions(cmd, &args->common,
                   {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv});
  SetRun(cmd, ctx, args, RunTable);
}

}  // namespace profana::app
