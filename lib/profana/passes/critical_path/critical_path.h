// ComputeCriticalPaths: HTA's critical path analysis (critical_path_analysis.py) of the windows a
// request names (each ProfilerStep#N by default, one step, or an annotation's K-th instance as
// HTA's critical_path_analysis(rank, annotation, instance_id)): the graph (build_graph.h), its
// longest path (longest_path.h), the path's length split by what bounds it (HTA's bound_by),
// the events on it with their share, and what-if predictions: edges a rule names are rescaled and
// the longest path is solved again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/base/row_limit.h"
#include "profana/base/status.h"
#include "profana/model/launch_index.h"
#include "profana/model/source_events.h"
#include "profana/model/trace.h"
#include "profana/passes/critical_path/build_graph.h"
#include "profana/passes/critical_path/cp_graph.h"
#include "profana/passes/critical_path/longest_path.h"

namespace profana::passes {

// What bounds a span of the path (HTA's bound_by; "sync" and "dependency" edges weigh 0 and are
// only counted).
enum class CpBound : uint8_t {
  kCpu,            // cpu_bound: host ops and runtime calls
  kKernel,         // gpu_compute_bound: kernels, memcpys, memsets
  kCommunication,  // gpu_communication_bound: NCCL / RCCL kernels
  kKernelGap,      // gpu_kernel_kernel_overhead: idle between two kernels of a stream
  kLaunchDelay,    // gpu_kernel_launch_overhead: a launch call's start to its kernel's start
  kSync,           // sync and dependency edges (0)
};
constexpr int kCpBounds = 6;
const char* CpBoundName(CpBound b);  // "cpu", "kernel", ...
CpBound BoundOf(const Trace& trace, const CpGraph& g, const CpEdge& e);

// A what-if rule: the edges of one kind whose event's name matches, times a factor.
struct CpWhatIf {
  enum class Target : uint8_t {
    kKernel,  // a kernel's (memcpy's, memset's) own span
    kOp,      // host ops' and runtime calls' spans
    kSync,    // sync edges whose host call (or either end) matches; factor 0 removes the wait
    kLaunch,  // launch delays of the kernels that match
  };
  Target target = Target::kKernel;
  std::string pattern;  // RE2, searched anywhere in the name
  double factor = 1;
  std::string text;  // as given: "kernel:gemm=0.5"
};
// "kernel:REGEX=F", "op:REGEX=F", "sync:REGEX=F", "launch:REGEX=F"; F >= 0. Anything else is
// kInvalidArgument: "\"TEXT\": why (expected ...)".
Result<CpWhatIf> ParseWhatIf(const std::string& text);

struct CpRequest {
  enum class Select : uint8_t { kEachStep, kStep, kAnnotation };
  Select select = Select::kEachStep;
  int64_t step = -1;       // kStep: N of ProfilerStep#N
  std::string annotation;  // kAnnotation: a substring of the name; "" is the whole trace
  int64_t instance = 0;    // kAnnotation: which match, 0 first, in time order
  std::string data_load;   // RE2: user annotations taken as ops (HTA's data_load_events)
  std::vector<CpWhatIf> what_if;
  // Zero-weight launch edges (build_graph.h); what-if always has them, so that no kernel starts
  // before its launch call once weights change.
  bool causal_launch_edges = false;
  size_t top_events =
      static_cast<size_t>(DefaultRowLimit(RowKind::kRanked));  // events listed per window
};

struct CpEventShare {
  EventId event;
  int64_t ns = 0;  // the path's time attributed to it
};

struct CpWhatIfResult {
  std::string rule;
  int64_t edges_changed = 0;
  int64_t length_ns = 0;              // the predicted path (and so step) length
  std::vector<EventId> now_critical;  // events on the new path that were not on the old
  std::vector<EventId> left_path;     // events on the old path that are not on the new
};

struct CpWindowResult {
  std::string label;  // "ProfilerStep#7", the annotation's name, or "whole trace"
  int64_t step = -1;  // N, when the window is a step
  CpWindow window;
  int64_t wall_ns = 0;                 // the graph's span: its first node's time to its last's
  int64_t busiest_stream_busy_ns = 0;  // device work of the busiest stream (union), in the graph
  ThreadId busiest_stream = ThreadId::None();
  int64_t length_ns = 0;
  int64_t bound_ns[kCpBounds] = {};
  int64_t bound_edges[kCpBounds] = {};
  int64_t graph_nodes = 0, graph_edges = 0;
  int64_t edges_by_type[kCpEdgeTypes] = {};
  int64_t critical_events = 0;       // distinct events of the path's nodes
  std::vector<CpEventShare> events;  // by time on the path, largest first (top_events)
  std::vector<CpWhatIfResult> what_if;
  bool cyclic = false;
  // Kept for the overlay (reporters/critical_path_overlay.h).
  CpGraph graph;
  CpPath path;
};

struct CriticalPathResult {
  std::vector<CpWindowResult> windows;
  bool whole_trace_fallback = false;  // each step asked, but the trace has no ProfilerStep#N
  bool event_syncs_read = false;      // the file's cuda_sync waits were available
};

Result<CriticalPathResult> ComputeCriticalPaths(const Trace& trace, const SourceEvents* source,
                                                const CpRequest& request);

}  // namespace profana::passes
