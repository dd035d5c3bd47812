// The options of `profana kernels`; the run they make is lib/profana/run/kernels.h.
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/run/kernels.h"

namespace profana::app {

void RegisterKernelsCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::KernelsArgs>();
  CLI::App* cmd = AddCommand(
      app, ctx, args, run::RunKernels, "kernels",
      "Per kernel: category, count, total, share of device time, mean, median, min, max, std dev "
      "(or per launching op, runtime call, transfer kind)");
  AddJobInputs(cmd, &args->job, "Traces (summed over ranks when several)", false);
  cmd->add_flag("--by-op", args->by_op, "One row per op that launched the kernels");
  cmd->add_flag("--api", args->api, "Runtime and driver calls instead of kernels (cuda_api_sum)");
  cmd->add_flag("--transfers", args->transfers, "Memcpy by direction and memset, per kind");
  cmd->add_flag("--full-names", args->full_names,
                "Keep kernel names whole in text (template and parameter lists are elided)");
  AddNamedOption(cmd, "--sort", &args->sort, report::ParseKernelSort, report::KernelSortNames(),
                 "Order rows by total (the default), count, mean, min or max time, largest "
                 "first, or by name")
      ->default_str("total");
  AddRowLimitOption(cmd, &args->row_limit, RowKind::kSums, INT64_MIN, "Rows to print; -1 for all");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(
      cmd, &args->common,
      {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kMarkdown});
}

}  // namespace profana::app
