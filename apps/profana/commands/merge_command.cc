// The options of `profana merge`; the run they make is lib/profana/run/merge.h.
#include "profana/commands/commands.h"
#include "profana/run/merge.h"

namespace profana::app {

void RegisterMergeCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::MergeArgs>();
  CLI::App* cmd = AddCommand(
      app, ctx, args, run::RunMerge, "merge",
      "Add summary files up into one (any grouping and order gives the same file); a source or "
      "rank held twice is refused");
  cmd->add_option("SUMMARY", args->inputs,
                  "Summary files (profana summarize), or directories and globs of them")
      ->required();
  cmd->footer("Example: profana merge summaries/ -o job.pfs   (then: profana steps job.pfs)");
  // Summaries are already filtered and summarised: no trace filters, no trace formats.
  AddOutputOptions(cmd, &args->common, {OutputFormat::kJson});
}

}  // namespace profana::app
