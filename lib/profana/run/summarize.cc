#include "profana/run/summarize.h"

#include "profana/job/source_hash.h"
#include "profana/job/summary_file.h"
#include "profana/run/command_load.h"

namespace profana::run {

Status RunSummarize(const SummarizeArgs& a, Session& session) {
  job::JobRequest request = JobRequestFor(a.job, a.common);
  job::SummaryOptions& so = request.summary;
  so.table = so.shape_table = so.steps = so.kernels = so.collectives = so.memory = true;
  request.source_hash = true;
  // Summaries among the inputs are merged in: summarize then is a merge as well.
  request.summary_input = job::SummaryInput::kAsIs;
  PROFANA_ASSIGN_OR_RETURN(job::JobRun run, RunJobForCommand(request, session));
  const job::JobSummary& job = run.job;
  PROFANA_ASSIGN_OR_RETURN(job::RankSummary all, job.Combine());
  return session.Emit(job::FormatSummary(all));
}

}  // namespace profana::run
