#include "profana/passes/critical_path/longest_path.h"

#include <algorithm>

namespace profana::passes {

CpPath SolveLongestPath(const CpGraph& g, const std::vector<int64_t>& weights) {
  CpPath path;
  if (g.order.empty()) return path;
  auto weight = [&](CpEdgeId e) {
    return weights.empty() ? g.edges[e.value].weight_ns : weights[e.value];
  };
  // networkx's topological_generations: the nodes without edges in, in the order they joined;
  // then, generation by generation, each node's successors in the order their edges were added.
  const size_t n = g.nodes.size();
  std::vector<uint32_t> indegree(n, 0);
  for (CpNodeId v : g.order) indegree[v.value] = static_cast<uint32_t>(g.in[v.value].size());
  std::vector<CpNodeId> topo, generation, next;
  topo.reserve(g.order.size());
  for (CpNodeId v : g.order)
    if (indegree[v.value] == 0) generation.push_back(v);
  while (!generation.empty()) {
    next.clear();
    for (CpNodeId v : generation) {
      topo.push_back(v);
      for (CpEdgeId e : g.out[v.value]) {
        uint32_t c = g.edges[e.value].to.value;
        if (--indegree[c] == 0) next.push_back(CpNodeId(c));
      }
    }
    std::swap(generation, next);
  }
  if (topo.size() != g.order.size()) {
    path.cyclic = true;
    return path;
  }
  // dag_longest_path: per node, its length and the edge it is reached by (None: it starts a path).
  std::vector<int64_t> dist(n, 0);
  std::vector<CpEdgeId> via(n, CpEdgeId::None());
  for (CpNodeId v : topo) {
    bool any = false;
    int64_t best = 0;
    CpEdgeId best_edge = CpEdgeId::None();
    for (CpEdgeId e : g.in[v.value]) {
      if (weight(e) == kRemovedEdge) continue;
      int64_t d = dist[g.edges[e.value].from.value] + weight(e);
      if (!any || d > best) {
        best = d;
        best_edge = e;
        any = true;
      }
    }
    if (any && best >= 0) {
      dist[v.value] = best;
      via[v.value] = best_edge;
    }
  }
  CpNodeId end = topo.front();
  for (CpNodeId v : topo)
    if (dist[v.value] > dist[end.value]) end = v;
  path.length_ns = dist[end.value];
  for (CpNodeId v = end;;) {
    path.nodes.push_back(v);
    CpEdgeId e = via[v.value];
    if (!e.valid()) break;
    path.edges.push_back(e);
    v = g.edges[e.value].from;
  }
  std::reverse(path.nodes.begin(), path.nodes.end());
  std::reverse(path.edges.begin(), path.edges.end());
  return path;
}

}  // namespace profana::passes
