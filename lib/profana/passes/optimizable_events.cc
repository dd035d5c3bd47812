#include "profana/passes/optimizable_events.h"

namespace profana::passes {

OptimizableEvents FindOptimizableEvents(const Trace& trace, const FunctionEventList& events,
                                        size_t length) {
  OptimizableEvents out;
  out.evaluation = EvaluateGpu(trace, events, LaunchIndex(trace.events));
  out.ranking = RankEvents(trace, events, out.evaluation, length);
  for (const RankedEvent& e : out.ranking.events)
    out.source_locations.push_back(SourceCodeLocation(trace, events, e.event));
  return out;
}

}  // namespace profana::passes
