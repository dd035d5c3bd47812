// profana kernels: kernel, runtime API and transfer statistics (nsys stats' cuda_gpu_kern_sum,
// cuda_api_sum, cuda_gpu_mem_time_sum), for one trace or a whole job.
#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/reporters/kernels_reporter.h"

namespace profana::app {
namespace {

struct KernelsArgs {
  CommonOptions common;
  JobArgs job;
  bool by_op = false;
  bool api = false;
  bool transfers = false;
  bool full_names = false;
  int64_t row_limit = 0;  // -n: its default is AddRowLimitOption's
  report::KernelSort sort = report::KernelSort::kTotal;
};

Status RunKernels(const KernelsArgs& a, Context& ctx) {
  if (a.by_op + a.api + a.transfers > 1)
    return Status(ErrorCode::kInvalidArgument,
                  "--by-op, --api and --transfers are different views: choose one");
  job::JobRequest request = JobRequestFor(a.job, a.common);
  request.summary.kernels = true;
  request.summary_input = job::SummaryInput::kAsIs;
  PROFANA_ASSIGN_OR_RETURN(job::JobRun run, RunJobForCommand(request, ctx));
  const job::JobSummary& job = run.job;
  PROFANA_ASSIGN_OR_RETURN(job::RankSummary all, job.Combine());
  report::KernelsReport r;
  r.inputs = a.job.inputs;
  r.ranks = job.RankList();
  r.stats = &all.kernels;
  r.view = a.by_op       ? report::KernelView::kByOp
           : a.api       ? report::KernelView::kApi
           : a.transfers ? report::KernelView::kTransfers
                         : report::KernelView::kKernels;
  r.full_names = a.full_names;
  r.row_limit = a.row_limit;
  r.sort = a.sort;
  return Emit(report::FormatKernelsAs(a.common.format, r), a.common, ctx);
}

}  // namespace

void RegisterKernelsCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<KernelsArgs>();
  CLI::App* cmd = app.add_subcommand(
      "kernels",
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
  SetRun(cmd, ctx, args, RunKernels);
}

}  // namespace profana::app
