// The critical path graph of one window of one trace, as Holistic Trace Analysis builds it
// (hta/analyzers/critical_path_analysis.py, CPGraph): every CPU op and runtime call, and every
// kernel, memcpy and memset, is two nodes (its start and its end); typed edges between nodes say
// what must happen before what, weighted by the time between them. The longest path through it is
// the chain of work that sets the window's length. Plain data: built by BuildCriticalPathGraph
// (build_graph.h), solved by SolveLongestPath (longest_path.h), never changed in between except
// for what-if weights, which live beside it.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/base/ids.h"

namespace profana::passes {

using CpNodeId = Id<struct CpNodeTag>;
using CpEdgeId = Id<struct CpEdgeTag>;

// HTA's CPEdgeType, with the names its overlay writes as a flow event's category.
enum class CpEdgeType : uint8_t {
  kOperator,      // critical_path_operator: a span inside one op, runtime call or kernel
  kDependency,    // critical_path_dependency: one top-level op to the next on a thread (weight 0)
  kLaunchDelay,   // critical_path_kernel_launch_delay: a runtime call's start to its kernel's start
  kKernelKernel,  // critical_path_kernel_kernel_delay: one kernel's end to the next on its stream
  kSync,          // critical_path_sync_dependency: device work a host call or stream waits on (0)
};
constexpr int kCpEdgeTypes = 5;
const char* CpEdgeTypeName(CpEdgeType type);  // "critical_path_operator", ...

struct CpNode {
  EventId event;      // the op, call or kernel the node starts or ends
  int64_t ts_ns = 0;  // its start or end
  bool is_start = false;
};

struct CpEdge {
  CpNodeId from, to;
  CpEdgeType type = CpEdgeType::kOperator;
  int64_t weight_ns = 0;  // >= 0 (HTA's negative weights from rounding are set to 0 and counted)
  // The event whose time the edge is (HTA's edge_to_event_map): operator and kernel-kernel edges
  // only; None for the others.
  EventId attributed = EventId::None();
};

struct CpGraph {
  std::vector<CpNode> nodes;
  std::vector<CpEdge> edges;
  // Per node, its edges out and in, in the order they were added (the order a tie between two
  // equally long paths is broken in: longest_path.h).
  std::vector<std::vector<CpEdgeId>> out, in;
  // The order nodes joined the graph: a node joins with the first edge that touches it (nodes of
  // no edge never do), as in networkx's DiGraph.
  std::vector<CpNodeId> order;
  // Per trace event: its start and end node; None for events not in the graph.
  std::vector<CpNodeId> start_of, end_of;
  int64_t negative_weights = 0;  // edges whose end came before their start (set to 0)

  CpNodeId StartOf(EventId e) const {
    return e.value < start_of.size() ? start_of[e.value] : CpNodeId::None();
  }
  CpNodeId EndOf(EventId e) const {
    return e.value < end_of.size() ? end_of[e.value] : CpNodeId::None();
  }
};

}  // namespace profana::passes
