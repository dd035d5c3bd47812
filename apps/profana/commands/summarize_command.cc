// profana summarize: the per-rank summary file (docs/summary-format.md) that the whole-job
// commands read in place of the trace, and that profana merge adds up.
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/job/source_hash.h"
#include "profana/job/summary_file.h"

namespace profana::app {
namespace {

struct SummarizeArgs {
  CommonOptions common;
  JobArgs job;
};

Status RunSummarize(const SummarizeArgs& a, Context& ctx) {
  job::JobRequest request = JobRequestFor(a.job, a.common);
  job::SummaryOptions& so = request.summary;
  so.table = so.shape_table = so.steps = so.kernels = so.collectives = so.memory = true;
  request.source_hash = true;
  // Summaries among the inputs are merged in: summarize then is a merge as well.
  request.summary_input = job::SummaryInput::kAsIs;
  PROFANA_ASSIGN_OR_RETURN(job::JobRun run, RunJobForCommand(request, ctx));
  const job::JobSummary& job = run.job;
  PROFANA_ASSIGN_OR_RETURN(job::RankSummary all, job.Combine());
  return Emit(job::FormatSummary(all), a.common, ctx);
}

}  // namespace

void RegisterSummarizeCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<SummarizeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "summarize",
      "A summary file of one rank or a group of ranks, read by table, steps, kernels and "
      "collectives in place of the traces and added up by merge");
  AddJobInputs(cmd, &args->job, "Traces (one rank each) to summarise together", false);
  cmd->footer(
      "Example: profana summarize rank3.json.gz -o rank3.pfs   (then: profana merge *.pfs -o "
      "job.pfs; profana table job.pfs)\nFormat: docs/summary-format.md");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common, {OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunSummarize);
}

}  // namespace profana::app
