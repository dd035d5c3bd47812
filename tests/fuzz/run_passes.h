// What every fuzz target does with a Trace its importer accepted: runs the analysis passes the
// commands run, so a value an importer lets through cannot crash (or overflow in) a pass.
// Header-only: each fuzz target is one translation unit plus the library.
#pragma once

#include "profana/io/chrome_trace_writer.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"
#include "profana/passes/gpu_evaluation.h"
#include "profana/passes/gpu_streams.h"
#include "profana/passes/key_averages.h"
#include "profana/passes/memory_timeline.h"
#include "profana/passes/stacks.h"
#include "profana/passes/trace_validation.h"

namespace profana::fuzz {

inline void RunPasses(const Trace& trace) {
  namespace p = profana::passes;
  p::FunctionEventList events = p::BuildFunctionEvents(trace);
  p::ComputeKeyAverages(trace, events, {false, 0});
  p::ComputeKeyAverages(trace, events, {true, 5});
  p::ComputeStackSamples(trace, events, p::StackSource::kBoth, p::StackMetric::kSelfCuda);
  LaunchIndex launches(trace.events);
  p::GpuEvaluation eval = p::EvaluateGpu(trace, events, launches);
  p::RankEvents(trace, events, eval, 10);
  p::ComputeIdleBreakdown(trace, events, launches, 30, 5);
  p::ComputeStreamQueues(trace, launches);
  p::ValidateTrace(trace, launches);
  p::MemoryTimeline memory = p::BuildMemoryTimeline(trace, events);
  p::MemoryByOp(trace, events, memory, -1);
  io::WriteChromeTrace(trace);
}

}  // namespace profana::fuzz
