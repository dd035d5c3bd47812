#include "profana/run/steps.h"

#include "fmt/format.h"
#include "profana/job/job_results.h"
#include "profana/reporters/steps_reporter.h"
#include "profana/run/command_load.h"

namespace profana::run {

Status RunSteps(const StepsArgs& a, Session& session) {
  job::JobRequest request = JobRequestFor(a.job, a.common);
  request.summary.steps = true;
  request.summary_input = job::SummaryInput::kAsIs;
  request.function_events = false;
  PROFANA_ASSIGN_OR_RETURN(job::JobRun run, RunJobForCommand(request, session));
  if (a.peak_tflops && *a.peak_tflops <= 0)
    return Status(ErrorCode::kInvalidArgument, "--peak-tflops: expected a number above 0");
  PROFANA_ASSIGN_OR_RETURN(job::JobSteps steps, job::StepsOfJob(run.job, a.peak_tflops));
  if (steps.all.steps.empty() && !run.no_steps.empty()) session.Warn("{}", run.no_steps);
  if (!steps.devices_without_peak.empty())
    session.Warn(
        "note: no MFU for FLOPs on {}: not in the peak table (docs/semantics.md, \"Device "
        "peaks\"); give the peak with --peak-tflops",
        fmt::join(steps.devices_without_peak, ", "));
  report::StepsReport r{a.job.inputs, run.job.RankList(), &steps.all.steps, steps.overview};
  return session.Emit(report::FormatStepsAs(a.common.format, r));
}

}  // namespace profana::run
