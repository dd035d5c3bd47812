#include "profana/run/optimizable.h"

#include "profana/job/run_job.h"
#include "profana/passes/function_events.h"
#include "profana/passes/optimizable_events.h"
#include "profana/reporters/optimizable_reporter.h"
#include "profana/run/command_load.h"

namespace profana::run {

Status RunOptimizable(const OptimizableArgs& a, Session& session) {
  CommonOptions common = a.common;
  common.unread = job::TimelineUnread(/*reads_stacks=*/true);
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, common, session, &index));
  Stopwatch clock;
  PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                           BuildEventsForCommand(trace, index, a.file, common, session));
  passes::OptimizableEvents found =
      passes::FindOptimizableEvents(trace, events, static_cast<size_t>(a.top));
  const passes::GpuEvaluation& eval = found.evaluation;
  session.Debug("queue depth over {} launches and {} kernels, {} candidates, in {:.1f} ms",
                eval.launches, eval.kernels, found.ranking.candidates, clock.Lap());
  std::string why = report::WhyNothingRanks(found);
  if (!why.empty()) session.Warn("{}: {}", InputName(a.file), why);
  return session.Emit(
      report::FormatOptimizableAs(a.common.format, a.file, trace.strings, events, found));
}

}  // namespace profana::run
