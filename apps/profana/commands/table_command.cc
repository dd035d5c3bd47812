// The options of `profana table`; the run they make is lib/profana/run/table.h.
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/run/table.h"

namespace profana::app {

void RegisterTableCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::TableArgs>();
  CLI::App* cmd =
      AddCommand(app, ctx, args, run::RunTable, "table",
                 "Print the table PyTorch's prof.key_averages().table() prints, from a trace file");
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
}

}  // namespace profana::app
