// profana collectives: each collective matched across the ranks of a job, with its skew,
// transfer time, waits and bandwidth; the stragglers; the clock offsets that align the ranks.
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/job/job_results.h"
#include "profana/reporters/collectives_reporter.h"

namespace profana::app {
namespace {

struct CollectivesArgs {
  CommonOptions common;
  JobArgs job;
  bool no_align = false;
  std::string table;      // --table: which table CSV holds (collectives or stragglers)
  int64_t row_limit = 0;  // -n: its default is AddRowLimitOption's
};

Status RunCollectives(const CollectivesArgs& a, Context& ctx) {
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
  PROFANA_ASSIGN_OR_RETURN(job::JobRun run, RunJobForCommand(request, ctx));
  job::JobCollectives found = job::CollectivesOfJob(&run.job, !a.no_align);
  report::CollectivesReport r{a.job.inputs, run.job.RankList(), &found.result, found.calls,
                              a.row_limit};
  return Emit(report::FormatCollectivesAs(f, r, a.table == "stragglers"), a.common, ctx);
}

}  // namespace

void RegisterCollectivesCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<CollectivesArgs>();
  CLI::App* cmd = app.add_subcommand(
      "collectives",
      "Collectives matched across ranks: arrival skew, transfer time, wait per rank, algorithm "
      "and bus bandwidth; which rank makes the others wait; the clock offsets between ranks");
  AddJobInputs(cmd, &args->job, "Traces of one job (one per rank)", false);
  cmd->add_flag("--no-align", args->no_align,
                "Keep each rank's own clock (default: align the ranks on the ends of matched "
                "collectives)");
  cmd->add_option("--table", args->table,
                  "With --format csv, the table to write: collectives (default; one row per "
                  "collective) or stragglers (one row per rank)")
      ->check(OneOf("--table", "table", {"collectives", "stragglers"}));
  AddRowLimitOption(cmd, &args->row_limit, RowKind::kRanked, -1,
                    "Collectives to print, most wait first; -1 for all");
  AddCommonOptions(
      cmd, &args->common,
      {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kMarkdown});
  SetRun(cmd, ctx, args, RunCollectives);
}

}  // namespace profana::app
