// profana steps: where each ProfilerStep#N's time goes, per rank, and across the job.
#include <optional>

#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/job/job_results.h"
#include "profana/reporters/steps_reporter.h"

namespace profana::app {
namespace {

struct StepsArgs {
  CommonOptions common;
  JobArgs job;
  std::optional<double> peak_tflops;
};

Status RunSteps(const StepsArgs& a, Context& ctx) {
  job::JobRequest request = JobRequestFor(a.job, a.common);
  request.summary.steps = true;
  request.summary_input = job::SummaryInput::kAsIs;
  request.function_events = false;
  PROFANA_ASSIGN_OR_RETURN(job::JobRun run, RunJobForCommand(request, ctx));
  if (a.peak_tflops && *a.peak_tflops <= 0)
    return Status(ErrorCode::kInvalidArgument, "--peak-tflops: expected a number above 0");
  PROFANA_ASSIGN_OR_RETURN(job::JobSteps steps, job::StepsOfJob(run.job, a.peak_tflops));
  if (steps.all.steps.empty() && !run.no_steps.empty()) ctx.log.Warn("{}", run.no_steps);
  if (!steps.devices_without_peak.empty())
    ctx.log.Warn(
        "note: no MFU for FLOPs on {}: not in the peak table (docs/semantics.md, \"Device "
        "peaks\"); give the peak with --peak-tflops",
        fmt::join(steps.devices_without_peak, ", "));
  report::StepsReport r{a.job.inputs, run.job.RankList(), &steps.all.steps, steps.overview};
  return Emit(report::FormatStepsAs(a.common.format, r), a.common, ctx);
}

}  // namespace

void RegisterStepsCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<StepsArgs>();
  CLI::App* cmd = app.add_subcommand(
      "steps",
      "Per ProfilerStep#N and rank: wall time; GPU time in computation, exposed communication, "
      "exposed memcpy/memset and idle; hidden communication; host time outside ops");
  AddJobInputs(cmd, &args->job, "Traces", false);
  cmd->add_option("--peak-tflops", args->peak_tflops,
                  "The device's peak in TFLOP/s for MFU, for every data type (default: the "
                  "peak table's figure for the device and each op's type)")
      ->check(NonNegativeNumber("--peak-tflops"));
  AddCommonOptions(
      cmd, &args->common,
      {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kMarkdown});
  SetRun(cmd, ctx, args, RunSteps);
}

}  // namespace profana::app
