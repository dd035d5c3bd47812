// profana idle: GPU idle time per device and stream, split into host wait / kernel wait / other,
// with the longest gaps.
#include <algorithm>
#include <cmath>

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
  double kernel_delay_us = 30;
  int gaps = 10;
};

Status RunIdle(const IdleArgs& a, Context& ctx) {
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, a.common, ctx, &index));
  // (the text report says it in its place)
  if (a.common.format != OutputFormat::kText) WarnWithoutDeviceActivity(trace, a.file, ctx);
  passes::FunctionEventList events = BuildEventsForCommand(trace, index, a.common, ctx);
  // Finite and >= 0 (checked); capped far beyond any trace's length so the cast cannot overflow.
  auto delay_ns = static_cast<int64_t>(std::llround(std::min(a.kernel_delay_us * 1000.0, 9e18)));
  passes::IdleBreakdown b = passes::ComputeIdleBreakdown(trace, events, LaunchIndex(trace.events),
                                                         delay_ns, static_cast<size_t>(a.gaps));
  switch (a.common.format) {
    case OutputFormat::kJson:
      return Emit(report::FormatIdleJson(a.file, trace, events, b), a.common, ctx);
    case OutputFormat::kCsv:
      return Emit(report::FormatIdleCsv(trace, b), a.common, ctx);
    default:
      return Emit(report::FormatIdleText(trace, events, b, a.gaps), a.common, ctx);
  }
}

}  // namespace

void RegisterIdleCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<IdleArgs>();
  CLI::App* cmd = app.add_subcommand("idle",
                                     "GPU idle time per device and stream: host wait, kernel wait, "
                                     "other; the longest gaps and the op running");
  cmd->add_option("FILE", args->file, "Trace file; - reads standard input")->required();
  cmd->add_option("--kernel-delay", args->kernel_delay_us,
                  "Gaps shorter than US microseconds after an early launch are kernel wait "
                  "(HTA's consecutive_kernel_delay: 30 on Kineto's microsecond timestamps)")
      ->default_val(30)
      ->check(NonNegativeNumber("--kernel-delay"));
  cmd->add_option("--gaps", args->gaps, "How many of the longest gaps to list")
      ->default_val(10)
      ->check(WholeNumber<int>("--gaps", 0));
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common,
                   {OutputFormat::kText, OutputFormat::kCsv, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunIdle);
}

}  // namespace profana::app
