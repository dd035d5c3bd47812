// BuildCriticalPathGraph: HTA's CPGraph for one window of one trace (critical_path_analysis.py,
// _construct_graph and what it calls). The rules, in docs/semantics.md "Critical path":
//  * the window's events: host events that start inside it and last longer than 0, and the
//    device work whose launch call is one of those (and every "Stream Wait Event");
//  * nodes: the start and end of each CPU op, runtime and driver call (and user annotation that
//    --data-load names) among them, and of each kernel, memcpy and memset with a correlation id;
//  * per CPU thread, in call-stack order: an operator edge from each node to the next, and a
//    zero-weight dependency edge from one top-level op's end to the next one's start; a
//    blocking call's (cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventQuery,
//    cudaEventSynchronize, cudaMemcpy, cudaMemcpyAsync) last span weighs 0: its wait is the
//    device's time, reached through a sync edge;
//  * per stream, in start order: an operator edge across each kernel; a launch delay edge from
//    its runtime call's start when the stream's queue was empty at the launch and no earlier
//    kernel or awaited kernel ended after the call began, else a kernel-kernel edge from the
//    stream's previous kernel; and, with causal_launch_edges (HTA's
//    CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE), a zero-weight launch edge otherwise, so a kernel
//    never starts before its launch when weights change;
//  * sync edges (weight 0): from the last kernel of the synchronised stream (of every stream for
//    cudaDeviceSynchronize) to the end of cudaStreamSynchronize / cudaDeviceSynchronize; from
//    the last kernel launched on the recorded stream before cudaEventRecord to the end of
//    cudaEventSynchronize / cudaEventQuery; and, for cudaStreamWaitEvent, from that kernel to
//    the next kernel launched on the waiting stream.
#pragma once

#include <cstdint>

#include "profana/model/launch_index.h"
#include "profana/model/source_events.h"
#include "profana/model/trace.h"
#include "profana/passes/critical_path/cp_graph.h"
#include "profana/passes/name_matcher.h"

namespace profana::passes {

struct CpWindow {
  int64_t start_ns = 0, end_ns = 0;  // both inclusive, as HTA selects
};

struct CpGraphInputs {
  const Trace* trace = nullptr;
  const LaunchIndex* launches = nullptr;
  // The cuda_sync events' waits (SourceEvents::wait_record / wait_stream); null or empty when
  // the trace's file was not read for them: event syncs then add no edges.
  const SourceEvents* source = nullptr;
  // User annotations to take as ops (HTA's data_load_events); inactive for none.
  NameMatcher* data_load = nullptr;
  // Zero-weight launch edges for every kernel without a launch delay edge (off by default in HTA;
  // its tests and simulations turn them on).
  bool causal_launch_edges = false;
};

CpGraph BuildCriticalPathGraph(const CpGraphInputs& in, const CpWindow& window);

}  // namespace profana::passes
