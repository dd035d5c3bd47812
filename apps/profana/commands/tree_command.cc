// The options of `profana tree`; the run they make is lib/profana/run/tree.h.
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/run/tree.h"

namespace profana::app {

void RegisterTreeCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::TreeArgs>();
  CLI::App* cmd =
      AddCommand(app, ctx, args, run::RunTree, "tree",
                 "The CPU op tree per thread: total and self time, launched kernels, shapes");
  cmd->add_option("FILE", args->file, "Trace file; - reads standard input")->required();
  cmd->add_option("--depth", args->report.depth, "Show at most N levels (1 = top-level ops only)")
      ->check(WholeNumber<int>("--depth", 1));
  cmd->add_option("--thread", args->thread, "Only this thread (its tid, or its name)");
  AddDurationOption(cmd, "--min-time", &args->min_time_ns, DurationUnit::kUs,
                    "Hide ops (and what they contain) shorter than this: 50us, 1.5ms; a bare "
                    "number is microseconds");
  cmd->add_flag("--no-fold", args->no_fold,
                "Print every op (text folds identical consecutive siblings into one line, xN)");
  cmd->add_flag("--full-names", args->report.full_names,
                "Keep kernel names whole in text (template and parameter lists are elided)");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
}

}  // namespace profana::app
