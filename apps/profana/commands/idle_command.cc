// profana idle: GPU idle time per device and stream, split into host wait / kernel wait / other,
// with the longest gaps.
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/passes/function_events.h"
#include "profana/passes/gpu_streams.h"
#include "profana/reporters/idle_reporter.h"

namespace profana::app {
namespace {

struct IdleArgs {
  CommonOptions common;
  std::string file;
  int64_t kernel_delay_ns = 30000;  // HTA's 30, on Kineto's microsecond timestamps
  int64_t gaps = 0;                 // -n: its default is AddRowLimitOption's
  report::IdleTextOptions text;
};

Status RunIdle(const IdleArgs& a, Context& ctx) {
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, a.common, ctx, &index));
  // (the text report says it in its place)
  if (a.common.format != OutputFormat::kText) WarnWithoutDeviceActivity(trace, a.file, ctx);
  PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                           BuildEventsForCommand(trace, index, a.file, a.common, ctx));
  passes::IdleBreakdown b = passes::ComputeIdleBreakdown(
      trace, events, LaunchIndex(trace.events), a.kernel_delay_ns, static_cast<size_t>(a.gaps));
  report::IdleTextOptions text = a.text;
  text.gaps_asked = static_cast<int>(a.gaps);
  return Emit(report::FormatIdleAs(a.common.format, a.file, trace, events, b, text), a.common, ctx);
}

}  // namespace

void RegisterIdleCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<IdleArgs>();
  CLI::App* cmd = app.add_subcommand("idle",
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
  SetRun(cmd, ctx, args, RunIdle);
}

}  // namespace profana::app
