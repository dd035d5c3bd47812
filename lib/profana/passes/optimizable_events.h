// FindOptimizableEvents: PyTorch's BasicEvaluation.get_optimizable_events(length) from a trace:
// the queue evaluation, the ranking, and the source code location of each ranked op.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "profana/passes/function_events.h"
#include "profana/passes/gpu_evaluation.h"

namespace profana::passes {

struct OptimizableEvents {
  GpuEvaluation evaluation;
  Ranking ranking;
  std::vector<std::string> source_locations;  // per ranking.events entry (SourceCodeLocation)
};

OptimizableEvents FindOptimizableEvents(const Trace& trace, const FunctionEventList& events,
                                        size_t length);

}  // namespace profana::passes
