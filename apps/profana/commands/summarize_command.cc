// The options of `profana summarize`; the run they make is lib/profana/run/summarize.h.
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/run/summarize.h"

namespace profana::app {

void RegisterSummarizeCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::SummarizeArgs>();
  CLI::App* cmd = AddCommand(
      app, ctx, args, run::RunSummarize, "summarize",
      "A summary file of one rank or a group of ranks, read by table, steps, kernels and "
      "collectives in place of the traces and added up by merge");
  AddJobInputs(cmd, &args->job, "Traces (one rank each) to summarise together", false);
  cmd->footer(
      "Example: profana summarize rank3.json.gz -o rank3.pfs   (then: profana merge *.pfs -o "
      "job.pfs; profana table job.pfs)\nFormat: docs/summary-format.md");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common, {OutputFormat::kJson});
}

}  // namespace profana::app
