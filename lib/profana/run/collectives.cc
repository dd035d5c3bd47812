#include "profana/run/collectives.h"

#include "profana/job/job_results.h"
#include "profana/reporters/collectives_reporter.h"
#include "profana/run/command_load.h"

namespace profana::run {

Status RunCollectives(const CollectivesArgs& a, Session& session) {
  OutputFormat f = a.common.format;
  if (!a.table.empty() && f != OutputFormat::kCsv)
    return Status(ErrorCode::kInvalidArgument,
                  "--table: only with --format csv (the other formats hold both tables)");
  // Collectives and steps credit no kernel to an op: the literal link rule, and no note on links.
  job::JobRequest request = JobRequestFor(a.job, a.common);
  request.link = passes::LinkRule::kPyTorch;
  request.summary.steps = request.summary.collectives = true;
  request.summary_input = job::SummaryInput::kCollectives;
  request.function_events = false;
  PROFANA_ASSIGN_OR_RETURN(job::JobRun run, RunJobForCommand(request, session));
  job::JobCollectives found = job::CollectivesOfJob(&run.job, !a.no_align);
  report::CollectivesReport r{a.job.inputs, run.job.RankList(), &found.result, found.calls,
                              a.row_limit};
  return session.Emit(report::FormatCollectivesAs(f, r, a.table == "stragglers"));
}

}  // namespace profana::run
