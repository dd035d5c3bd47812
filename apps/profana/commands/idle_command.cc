// The options of `profana idle`; the run they make is lib/profana/run/idle.h.
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/run/idle.h"

namespace profana::app {

void RegisterIdleCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::IdleArgs>();
  CLI::App* cmd = AddCommand(app, ctx, args, run::RunIdle, "idle",
                             "GPU idle time per device and stream: host wait, kernel wait, "
                             "other; the longest gaps and the op running");
  cmd->add_option("FILE", args->file, "Trace file; - reads standard input")->required();
  AddDurationOption(cmd, "--kernel-delay", &args->kernel_delay_ns, DurationUnit::kUs,
                    "Gaps shorter than this after an early launch are kernel wait: 30us, 0.5ms; a "
                    "bare number is microseconds (default 30: HTA's consecutive_kernel_delay, "
                    "applied to Kineto's microsecond timestamps)");
  AddRowLimitOption(cmd, &args->gaps, RowKind::kRanked, 0, "How many of the longest gaps to list");
  cmd->add_option("--gaps", args->gaps, "How many of the longest gaps to list")
      ->check(WholeNumber<int>("--gaps", 0))
      ->group("");  // hidden: command lines written with it keep working
  cmd->add_option_function<int>(
         "--max-name-width", [args](int v) { args->text.max_name_width = v; },
         "Cut the names of the longest gaps (the activity after, the op the CPU was in) to N")
      ->check(WholeNumber<int>("--max-name-width", 4).description(""));
  cmd->add_flag("--no-truncate", args->text.no_truncate,
                "Never cut names (the default; overrides --max-name-width)");
  cmd->add_flag("--full-names", args->text.full_names,
                "Keep kernel names whole in text (template and parameter lists are elided)");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common,
                   {OutputFormat::kText, OutputFormat::kCsv, OutputFormat::kJson});
}

}  // namespace profana::app
