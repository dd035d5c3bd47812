// SolveLongestPath: the longest path through a critical path graph (a DAG), as networkx's
// dag_longest_path finds it for HTA, ties included: nodes are visited in networkx's topological
// order (Kahn's generations, over nodes in the order they joined the graph and edges in the order
// they were added); a node's best predecessor is the first of the longest; the path ends at the
// first node, in that order, of the greatest length. Equal-length paths can differ in how many
// nodes they pass (zero-weight edges), so following networkx's choices is what makes the counts
// of critical events and edges match HTA's.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/passes/critical_path/cp_graph.h"

namespace profana::passes {

struct CpPath {
  std::vector<CpNodeId> nodes;  // first to last
  std::vector<CpEdgeId> edges;  // between consecutive nodes
  int64_t length_ns = 0;        // the sum of their weights
  bool cyclic = false;          // the graph has a cycle (a broken trace): no path
};

// A what-if weight that takes the edge out (a synchronisation that no longer waits).
constexpr int64_t kRemovedEdge = INT64_MIN;

// weights: per edge, the weight to use (what-if; kRemovedEdge: not there); empty for the graph's
// own.
CpPath SolveLongestPath(const CpGraph& g, const std::vector<int64_t>& weights = {});

}  // namespace profana::passes
