// profana merge: adds up summary files (profana summarize) into one. The merge is associative
// and commutative: any grouping and order of the same summaries gives the same bytes.
#include "profana/commands/commands.h"
#include "profana/job/job_inputs.h"
#include "profana/job/summary_file.h"
#include "profana/job/summary_merge.h"

namespace profana::app {
namespace {

struct MergeArgs {
  CommonOptions common;
  std::vector<std::string> inputs;
};

Status RunMerge(const MergeArgs& a, Context& ctx) {
  PROFANA_ASSIGN_OR_RETURN(std::vector<job::JobInput> inputs, job::ExpandInputs(a.inputs));
  for (const job::JobInput& in : inputs) ctx.inputs.push_back(in.path);
  Stopwatch clock;
  PROFANA_ASSIGN_OR_RETURN(job::RankSummary merged, job::MergeSummaryFiles(inputs));
  ctx.log.Debug("{} summar{} merged in {:.1f} ms (peak RSS {:.0f} MB)", inputs.size(),
                inputs.size() == 1 ? "y" : "ies", clock.Lap(), PeakRssMb());
  return Emit(job::FormatSummary(merged), a.common, ctx);
}

}  // namespace

void RegisterMergeCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "merge",
      "Add summary files up into one (any grouping and order gives the same file); a source or "
      "rank held twice is refused");
  cmd->add_option("SUMMARY", args->inputs,
                  "Summary files (profana summarize), or directories and globs of them")
      ->required();
  cmd->footer("Example: profana merge summaries/ -o job.pfs   (then: profana steps job.pfs)");
  // Summaries are already filtered and summarised: no trace filters, no trace formats.
  AddOutputOptions(cmd, &args->common, {OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunMerge);
}

}  // namespace profana::app
