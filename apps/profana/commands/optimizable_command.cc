// The options of `profana optimizable`; the run they make is lib/profana/run/optimizable.h.
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/run/optimizable.h"

namespace profana::app {

void RegisterOptimizableCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::OptimizableArgs>();
  CLI::App* cmd = AddCommand(app, ctx, args, run::RunOptimizable, "optimizable",
                             "The CPU ops worth optimising, as PyTorch's "
                             "BasicEvaluation.get_optimizable_events ranks them");
  cmd->add_option("FILE", args->file, "Trace file; - reads standard input")->required();
  AddRowLimitOption(cmd, &args->top, RowKind::kOptimizable, 1,
                    "How many events (get_optimizable_events(length=N))");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
}

}  // namespace profana::app
