// The options of `profana diff`; the run they make is lib/profana/run/diff.h.
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/run/diff.h"

namespace profana::app {

void RegisterDiffCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::DiffArgs>();
  CLI::App* cmd = AddCommand(app, ctx, args, run::RunDiff, "diff",
                             "Compare two traces or jobs per op and kernel (key_averages "
                             "keys): counts, self and total times, changes; or two CUDA "
                             "allocator snapshots: memory by state and by allocation site");
  cmd->add_option("BASE", args->base,
                  "The reference: a trace, or a job (a directory of rank traces, a glob, a summary "
                  "file), its ranks combined")
      ->required();
  cmd->add_option("NEW", args->next, "The trace or job to compare with it")->required();
  AddRanksOption(cmd, &args->ranks, "Only these ranks of each job: 0-3,7");
  cmd->add_flag("--by-rank", args->by_rank, "One diff per rank, the jobs' ranks matched by rank");
  AddNamedOption(cmd, "--sort", &args->options.sort, passes::ParseDiffMetric,
                 passes::DiffMetricNames(),
                 "Order by the change of: self (self CPU + self device), self_cpu, self_device, "
                 "cpu_total, device_total, count; table's keys for these columns are accepted "
                 "too (self_cuda_time_total, cuda_total, calls, ...)")
      ->default_str("self");
  AddRowLimitOption(cmd, &args->row_limit, RowKind::kSums, INT64_MIN, "Rows to print; -1 for all");
  cmd->add_option_function<int>(
         "--max-name-width", [args](int v) { args->max_name_width = v; },
         "Widest Name column (default 48 in text, 100 in Markdown)")
      ->check(WholeNumber<int>("--max-name-width", 4).description(""));
  cmd->add_flag("--no-truncate", args->no_truncate, "Never shorten names");
  cmd->add_flag("--full-names", args->full_names,
                "Keep kernel names whole in text and Markdown (template and parameter lists are "
                "elided)");
  cmd->add_flag("--group-by-input-shape", args->options.keys.group_by_input_shape,
                "Key rows by (name, input shapes)");
  cmd->add_option("--group-by-stack", args->options.keys.group_by_stack_n,
                  "Key rows by (name, top N stack frames)")
      ->check(WholeNumber<int>("--group-by-stack", 0).description(""));
  cmd->add_option("--color", args->color,
                  "Colour the changes: auto (when standard output is a terminal), always, never")
      ->check(OneOf("--color", "mode", {"auto", "always", "never"}))
      ->default_str("auto");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(
      cmd, &args->common,
      {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kMarkdown});
}

}  // namespace profana::app
