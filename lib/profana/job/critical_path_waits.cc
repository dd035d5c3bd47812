#include "profana/job/critical_path_waits.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

namespace profana::job {

RankPathComm PathCommOf(const Trace& trace, const passes::CriticalPathResult& result) {
  RankPathComm comm;
  comm.calls = FindCollectiveCalls(trace);
  for (size_t w = 0; w < result.windows.size(); ++w) {
    const passes::CpGraph& g = result.windows[w].graph;
    for (passes::CpEdgeId id : result.windows[w].path.edges) {
      const passes::CpEdge& e = g.edges[id.value];
      if (passes::BoundOf(trace, g, e) == passes::CpBound::kCommunication && e.attributed.valid())
        comm.spans.push_back({w, trace.events.start_ns[e.attributed.value], e.weight_ns});
    }
  }
  return comm;
}

CommWaits JobCommWaits(const std::vector<RankPathComm>& ranks, size_t windows) {
  std::vector<size_t> by_rank(ranks.size());
  for (size_t i = 0; i < by_rank.size(); ++i) by_rank[i] = i;
  std::sort(by_rank.begin(), by_rank.end(),
            [&](size_t x, size_t y) { return ranks[x].rank < ranks[y].rank; });
  std::vector<RankCalls> sorted;
  for (size_t i : by_rank) sorted.push_back({ranks[i].rank, ranks[i].calls, 0, 0, ""});
  return AttributeCommWaits(ranks, AnalyzeCollectives(sorted, /*align=*/true), windows);
}

CommWaits AttributeCommWaits(const std::vector<RankPathComm>& ranks,
                             const CollectivesResult& collectives, size_t windows) {
  // The matched collectives by (matched by group, group or label, index).
  std::map<std::tuple<bool, std::string, int64_t>, const MatchedCollective*> by_key;
  for (const MatchedCollective& c : collectives.collectives)
    by_key[{!c.group.empty(), c.group.empty() ? c.label : c.group, c.index}] = &c;
  std::vector<std::vector<std::vector<std::pair<int64_t, int64_t>>>> out(ranks.size());
  for (size_t r = 0; r < ranks.size(); ++r) {
    const RankPathComm& rank = ranks[r];
    std::vector<std::map<int64_t, int64_t>> waits(windows);
    std::vector<int64_t> order = OrderInGroup(rank.calls);
    for (const PathCommSpan& span : rank.spans) {
      // The rank's call that is this kernel.
      auto it = std::find_if(rank.calls.begin(), rank.calls.end(), [&](const CollectiveCall& c) {
        return c.start_ns == span.kernel_start_ns;
      });
      if (it == rank.calls.end() || span.window >= windows) continue;
      size_t k = static_cast<size_t>(it - rank.calls.begin());
      bool by_group = !it->group.empty();
      auto m = by_key.find({by_group, by_group ? it->group : it->label, order[k]});
      if (m == by_key.end() || m->second->last_rank == rank.rank) continue;
      for (const CollectiveRankTimes& t : m->second->ranks)
        if (t.rank == rank.rank && t.wait_ns > 0)
          waits[span.window][m->second->last_rank] += std::min(span.ns, t.wait_ns);
    }
    out[r].resize(windows);
    for (size_t w = 0; w < windows; ++w) {
      out[r][w].assign(waits[w].begin(), waits[w].end());
      std::stable_sort(out[r][w].begin(), out[r][w].end(),
                       [](const auto& a, const auto& b) { return a.second > b.second; });
    }
  }
  return out;
}

}  // namespace profana::job
