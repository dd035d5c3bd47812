// The reports of `profana optimizable`: the block PyTorch's
// BasicEvaluation.get_optimizable_events prints, byte for byte, and JSON (schema
// "profana.optimizable/1", docs/json.md) with the queue summary and each ranked op's numbers.
// Formatting only: passes/optimizable_events ranks.
#pragma once

#include <string>

#include "profana/base/string_pool.h"
#include "profana/passes/function_events.h"
#include "profana/passes/optimizable_events.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

// The ops are named from `strings`, the pool of the trace the events were built from.
std::string FormatOptimizableText(const StringPool& strings,
                                  const passes::FunctionEventList& events,
                                  const passes::OptimizableEvents& optimizable);
std::string FormatOptimizableJson(const std::string& input, const StringPool& strings,
                                  const passes::FunctionEventList& events,
                                  const passes::OptimizableEvents& optimizable);

// Why nothing ranks, for a note beside PyTorch's "No events to optimize": no kernels, no launch
// calls, a queue that never drains from a depth of 4, or no CPU op where it does. Empty when
// events ranked.
std::string WhyNothingRanks(const passes::OptimizableEvents& optimizable);

// The report in `format` (text or json): the one choice of printer.
std::string FormatOptimizableAs(OutputFormat format, const std::string& input,
                                const StringPool& strings, const passes::FunctionEventList& events,
                                const passes::OptimizableEvents& optimizable);

}  // namespace profana::report
