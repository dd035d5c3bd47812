#include "profana/run/kernels.h"

#include "profana/run/command_load.h"

namespace profana::run {

Status RunKernels(const KernelsArgs& a, Session& session) {
  if (a.by_op + a.api + a.transfers > 1)
    return Status(ErrorCode::kInvalidArgument,
                  "--by-op, --api and --transfers are different views: choose one");
  job::JobRequest request = JobRequestFor(a.job, a.common);
  request.summary.kernels = true;
  request.summary_input = job::SummaryInput::kAsIs;
  PROFANA_ASSIGN_OR_RETURN(job::JobRun run, RunJobForCommand(request, session));
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
  return session.Emit(report::FormatKernelsAs(a.common.format, r));
}

}  // namespace profana::run
