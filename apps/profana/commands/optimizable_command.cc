// profana optimizable: PyTorch's BasicEvaluation.get_optimizable_events, from a trace file.
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/passes/function_events.h"
#include "profana/passes/optimizable_events.h"
#include "profana/reporters/optimizable_reporter.h"

namespace profana::app {
namespace {

struct OptimizableArgs {
  CommonOptions common;
  std::string file;
  int64_t top = 0;  // -n: its default is AddRowLimitOption's
};

Status RunOptimizable(const OptimizableArgs& a, Context& ctx) {
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, a.common, ctx, &index));
  Stopwatch clock;
  PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                           BuildEventsForCommand(trace, index, a.file, a.common, ctx));
  passes::OptimizableEvents found =
      passes::FindOptimizableEvents(trace, events, static_cast<size_t>(a.top));
  const passes::GpuEvaluation& eval = found.evaluation;
  ctx.log.Debug("queue depth over {} launches and {} kernels, {} candidates, in {:.1f} ms",
                eval.launches, eval.kernels, found.ranking.candidates, clock.Lap());
  std::string why = report::WhyNothingRanks(found);
  if (!why.empty()) ctx.log.Warn("{}: {}", InputName(a.file), why);
  return Emit(report::FormatOptimizableAs(a.common.format, a.file, trace.strings, events, found),
              a.common, ctx);
}

}  // namespace

void RegisterOptimizableCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<OptimizableArgs>();
  CLI::App* cmd = app.add_subcommand("optimizable",
                                     "The CPU ops worth optimising, as PyTorch's "
                                     "BasicEvaluation.get_optimizable_events ranks them");
  cmd->add_option("FILE", args->file, "Trace file; - reads standard input")->required();
  AddRowLimitOption(cmd, &args->top, RowKind::kOptimizable, 1,
                    "How many events (get_optimizable_events(length=N))");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunOptimizable);
}

}  // namespace profana::app
