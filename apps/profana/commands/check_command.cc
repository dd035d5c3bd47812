// The options of `profana check`; the run they make is lib/profana/run/check.h.
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/run/check.h"

namespace profana::app {

void RegisterCheckCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::CheckArgs>();
  CLI::App* cmd = AddCommand(app, ctx, args, run::RunCheck, "check",
                             "CI gate: check a trace against a budget file or a baseline "
                             "trace, or validate it; exit 1 on failure");
  cmd->add_option(
         "FILE", args->file,
         "Trace file to check (with --budget or --baseline, also a job: a directory, glob or "
         "summary)")
      ->required();
  cmd->add_option("--budget", args->budget,
                  "Budget file (JSON; docs/budget.md): rules with limits");
  cmd->add_option("--baseline", args->baseline,
                  "A reference trace or job: fail when FILE is slower by --max-regression");
  AddRanksOption(cmd, &args->ranks, "Only these ranks of a job (and of a baseline job): 0-3,7");
  AddParsedOption(
      cmd, "--max-regression",
      [args](const std::string& s) -> Status {
        PROFANA_ASSIGN_OR_RETURN(args->max_regression, ParsePercentage(s));
        return Status::Ok();
      },
      "Allowed growth over the baseline: 5% or 0.05")
      ->default_str("5%");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
}

}  // namespace profana::app
