// The analyses that a database (`profana convert -o trace.sqlite`) and a timeline overlay
// (`convert --annotate`) hold beside the events, worked out once per trace: the steps and their
// breakdown, the GPU's idle gaps by cause, the queue length of every stream, the memory replay,
// the collectives, and which op each device activity is credited to.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "profana/job/collective_calls.h"
#include "profana/job/step_breakdown.h"
#include "profana/model/launch_index.h"
#include "profana/passes/device_owners.h"
#include "profana/passes/function_events.h"
#include "profana/passes/gpu_streams.h"
#include "profana/passes/memory_timeline.h"

namespace profana::job {

struct TraceAnalyses {
  std::unique_ptr<LaunchIndex> launches;  // of the trace's events
  std::vector<StepRow> steps;             // in order of time, without StepDevice::use
  // Every gap of every stream (IdleBreakdown::longest holds them all, longest first), with HTA's
  // consecutive kernel delay.
  passes::IdleBreakdown idle;
  std::vector<passes::StreamQueue> queues;  // QueueModel::kProfana
  passes::MemoryTimeline memory;            // empty when the trace has no [memory] records
  std::vector<CollectiveCall> collectives;
  std::vector<passes::DeviceOwner> owners;  // per trace event
};

// `events` is the trace's; keep both alive while the result is used.
TraceAnalyses AnalyseTrace(const Trace& trace, const passes::FunctionEventList& events);

// AnalyseTrace in stages, for a caller that works the stages out side by side:
// the launches and steps, from the trace alone (beside the building of its function events);
void AnalyseLaunchesAndSteps(const Trace& trace, TraceAnalyses* a);
// then the owners, which say with the launches and steps of each event its launch, step and op;
void AnalyseOwners(const Trace& trace, const passes::FunctionEventList& events, TraceAnalyses* a);
// then the idle gaps, queues, memory replay and collectives, which write only those members (so
// another thread may read the others meanwhile).
void AnalyseTimeline(const Trace& trace, const passes::FunctionEventList& events, TraceAnalyses* a);

// The step (N of ProfilerStep#N) whose window holds time t: windows never overlap
// (step_breakdown.h), so at most one does. nullopt outside every window.
std::optional<int64_t> StepAt(const std::vector<StepRow>& steps, int64_t t);

}  // namespace profana::job
