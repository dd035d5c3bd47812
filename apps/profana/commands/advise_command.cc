// The options of `profana advise`; the run they make is lib/profana/run/advise.h.
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/run/advise.h"

namespace profana::app {

void RegisterAdviseCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::AdviseArgs>();
  CLI::App* cmd = AddCommand(
      app, ctx, args, run::RunAdvise, "advise",
      "What would make the steps faster: findings ranked by the time each could save (bounded "
      "by the critical path), each with its evidence and fix");
  cmd->add_option("FILE", args->inputs,
                  "Trace file, or a directory or glob of a job's rank traces; - reads standard "
                  "input")
      ->required();
  AddRowLimitOption(cmd, &args->top, RowKind::kRanked, -1,
                    "How many findings the text shows (-1: all; the other formats show all)");
  AddDurationOption(cmd, "--small-kernel", &args->small_kernel_ns, DurationUnit::kUs,
                    "small-kernels: kernels shorter than this: 10us, 0.01ms; a bare number is "
                    "microseconds (default 10)");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(
      cmd, &args->common,
      {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kMarkdown});
}

}  // namespace profana::app
