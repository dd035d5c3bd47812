#include "profana/job/collective_analysis.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace profana::job {
namespace {

// A collective's identity across ranks: its group (or, without one, its label) and its order.
struct MatchKey {
  bool by_group = false;
  std::string name;  // the group, or the label
  int64_t index = 0;
  bool operator<(const MatchKey& o) const {
    return std::tie(by_group, name, index) < std::tie(o.by_group, o.name, o.index);
  }
};

struct Member {
  size_t rank = 0;  // index into the ranks
  size_t call = 0;  // index into that rank's calls
};

// Point-to-point transfers without a recorded group, on ranks one clock timed: a send and its
// receive run at the same time, so each is matched to the transfer of another rank of that clock
// that overlaps it most (greedy, in start order). Order would pair a pipeline's sends with the
// wrong receives as soon as one rank's sequence differs. Marks the calls it matched or left alone.
void MatchTransfersByTime(const std::vector<RankCalls>& ranks,
                          std::map<MatchKey, std::vector<Member>>* out,
                          std::vector<std::vector<uint8_t>>* done) {
  std::map<std::string, std::vector<size_t>> by_clock;
  for (size_t r = 0; r < ranks.size(); ++r)
    if (!ranks[r].clock.empty()) by_clock[ranks[r].clock].push_back(r);
  for (const auto& [clock, members] : by_clock) {
    if (members.size() < 2) continue;
    struct Transfer {
      size_t rank, call;
      int64_t start, end;
    };
    std::vector<Transfer> all;
    for (size_t r : members)
      for (size_t c = 0; c < ranks[r].calls.size(); ++c) {
        const CollectiveCall& call = ranks[r].calls[c];
        if (call.kind == CollectiveKind::kSendRecv && call.group.empty())
          all.push_back({r, c, call.start_ns, call.end_ns});
      }
    std::stable_sort(all.begin(), all.end(),
                     [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
    std::vector<uint8_t> used(all.size(), 0);
    int64_t index = 0;
    for (size_t i = 0; i < all.size(); ++i) {
      if (used[i]) continue;
      size_t best = i;
      int64_t best_overlap = 0;
      for (size_t j = i + 1; j < all.size() && all[j].start < all[i].end; ++j) {
        if (used[j] || all[j].rank == all[i].rank) continue;
        int64_t overlap = std::min(all[i].end, all[j].end) - all[j].start;
        if (overlap > best_overlap) best = j, best_overlap = overlap;
      }
      used[i] = 1;
      const std::string& label = ranks[all[i].rank].calls[all[i].call].label;
      // A name no order-matched label can have: transfers matched by time stay among themselves.
      MatchKey key{false, label + " (" + clock + ")", index++};
      used[best] = 1;
      // Members in rank order, as the order-matched ones are.
      size_t lo = all[best].rank < all[i].rank ? best : i, hi = lo == i ? best : i;
      for (size_t k : {lo, hi}) {
        if (k == hi && hi == lo) break;
        (*out)[key].push_back(Member{all[k].rank, all[k].call});
        (*done)[all[k].rank][all[k].call] = 1;
      }
    }
  }
}

std::map<MatchKey, std::vector<Member>> MatchCalls(const std::vector<RankCalls>& ranks) {
  std::map<MatchKey, std::vector<Member>> out;
  std::vector<std::vector<uint8_t>> done(ranks.size());
  for (size_t r = 0; r < ranks.size(); ++r) done[r].assign(ranks[r].calls.size(), 0);
  MatchTransfersByTime(ranks, &out, &done);
  for (size_t r = 0; r < ranks.size(); ++r) {
    std::vector<int64_t> order = OrderInGroup(ranks[r].calls);
    for (size_t c = 0; c < ranks[r].calls.size(); ++c) {
      if (done[r][c]) continue;
      const CollectiveCall& call = ranks[r].calls[c];
      bool by_group = !call.group.empty();
      out[MatchKey{by_group, by_group ? call.group : call.label, order[c]}].push_back(Member{r, c});
    }
  }
  return out;
}

// The lower median of `v` (not empty).
int64_t LowerMedian(std::vector<int64_t> v) {
  size_t mid = (v.size() - 1) / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  return v[mid];
}

int64_t EarliestStart(const MatchedCollective& c) {
  int64_t t = INT64_MAX;
  for (const CollectiveRankTimes& r : c.ranks) t = std::min(t, r.start_ns);
  return t;
}

}  // namespace

std::vector<int64_t> OrderInGroup(const std::vector<CollectiveCall>& calls) {
  std::vector<int64_t> out;
  out.reserve(calls.size());
  std::map<std::pair<bool, std::string>, int64_t> next;  // per group or label: the next index
  for (const CollectiveCall& call : calls) {
    bool by_group = !call.group.empty();
    out.push_back(next[{by_group, by_group ? call.group : call.label}]++);
  }
  return out;
}

double BusFactor(CollectiveKind kind, int64_t n) {
  if (n <= 0) return 1;
  double nd = static_cast<double>(n);
  switch (kind) {
    case CollectiveKind::kAllReduce:
      return 2 * (nd - 1) / nd;
    case CollectiveKind::kAllGather:
    case CollectiveKind::kReduceScatter:
    case CollectiveKind::kAllToAll:
      return (nd - 1) / nd;
    default:
      return 1;
  }
}

CollectivesResult AnalyzeCollectives(const std::vector<RankCalls>& ranks, bool align) {
  CollectivesResult out;
  out.align = align;
  std::map<MatchKey, std::vector<Member>> matched = MatchCalls(ranks);
  for (auto it = matched.begin(); it != matched.end();) {
    if (it->second.size() < 2) {
      out.unmatched_calls += static_cast<int64_t>(it->second.size());
      it = matched.erase(it);
    } else {
      ++it;
    }
  }

  // Offsets: per rank, the median of (reference end - own end) over shared collectives.
  std::vector<int64_t> offset(ranks.size(), 0);
  out.ranks.resize(ranks.size());
  for (size_t r = 0; r < ranks.size(); ++r) {
    out.ranks[r].rank = ranks[r].rank;
    out.ranks[r].steps = ranks[r].steps;
    out.ranks[r].step_wall_ns = ranks[r].step_wall_ns;
  }
  if (!ranks.empty()) {
    out.reference_rank = ranks[0].rank;
    out.ranks[0].aligned = align;
  }
  if (align && ranks.size() > 1) {
    std::vector<std::vector<int64_t>> diffs(ranks.size());
    for (const auto& [key, members] : matched) {
      if (members[0].rank != 0) continue;
      int64_t ref_end = ranks[0].calls[members[0].call].end_ns;
      for (size_t m = 1; m < members.size(); ++m)
        diffs[members[m].rank].push_back(ref_end -
                                         ranks[members[m].rank].calls[members[m].call].end_ns);
    }
    for (size_t r = 1; r < ranks.size(); ++r) {
      if (diffs[r].empty()) continue;
      offset[r] = LowerMedian(std::move(diffs[r]));
      out.ranks[r].offset_ns = offset[r];
      out.ranks[r].aligned = true;
    }
    // One clock, one offset: the first rank of each clock (the reference for its own) sets it.
    for (size_t r = 1; r < ranks.size(); ++r) {
      if (ranks[r].clock.empty()) continue;
      size_t first = 0;
      while (first < r && ranks[first].clock != ranks[r].clock) ++first;
      if (first == r) continue;
      offset[r] = offset[first];
      out.ranks[r].offset_ns = offset[first];
      out.ranks[r].aligned = out.ranks[first].aligned;
      out.ranks[r].clock_of = ranks[first].rank;
    }
  }

  for (const auto& [key, members] : matched) {
    MatchedCollective c;
    const CollectiveCall& first = ranks[members[0].rank].calls[members[0].call];
    c.kind = first.kind;
    c.label = first.label;
    c.group = first.group;
    c.index = key.index;
    c.transfer_ns = INT64_MAX;
    int64_t earliest = INT64_MAX, latest = INT64_MIN;
    for (const Member& m : members) {
      const CollectiveCall& call = ranks[m.rank].calls[m.call];
      CollectiveRankTimes t;
      t.rank = ranks[m.rank].rank;
      t.start_ns = call.start_ns + offset[m.rank];
      t.end_ns = call.end_ns + offset[m.rank];
      c.ranks.push_back(t);
      c.transfer_ns = std::min(c.transfer_ns, call.end_ns - call.start_ns);
      earliest = std::min(earliest, t.start_ns);
      if (t.start_ns > latest) {  // members are in rank order: ties keep the lower rank
        latest = t.start_ns;
        c.last_rank = t.rank;
      }
      if (c.bytes < 0) c.bytes = call.bytes;
      if (c.group_size <= 0) c.group_size = call.group_size;
    }
    c.skew_ns = latest - earliest;
    if (c.group_size <= 0) c.group_size = static_cast<int64_t>(members.size());
    for (size_t i = 0; i < members.size(); ++i) {
      CollectiveRankTimes& t = c.ranks[i];
      t.wait_ns = (t.end_ns - t.start_ns) - c.transfer_ns;
      c.wait_ns += t.wait_ns;
      RankStraggling& s = out.ranks[members[i].rank];
      ++s.collectives;
      s.wait_suffered_ns += t.wait_ns;
      if (t.rank == c.last_rank) ++s.arrived_last;
    }
    for (size_t i = 0; i < members.size(); ++i)
      if (c.ranks[i].rank == c.last_rank)
        out.ranks[members[i].rank].wait_caused_ns += c.wait_ns - c.ranks[i].wait_ns;
    if (c.bytes >= 0 && c.transfer_ns > 0) {
      c.algbw_gbps = static_cast<double>(c.bytes) / static_cast<double>(c.transfer_ns);
      c.busbw_gbps = c.algbw_gbps * BusFactor(c.kind, c.group_size);
    }
    out.collectives.push_back(std::move(c));
  }
  std::stable_sort(out.collectives.begin(), out.collectives.end(),
                   [](const MatchedCollective& a, const MatchedCollective& b) {
                     return EarliestStart(a) < EarliestStart(b);
                   });
  return out;
}

std::string SharedClock(const SourceInfo& source) {
  if (!RecordsNodeClock(TraceFormatNamed(source.format))) return "";
  return source.format + ":" + (source.hash.empty() ? source.path : source.hash);
}

std::vector<RankCalls> TakeRankCalls(JobSummary* job) {
  std::vector<RankCalls> ranks;
  for (RankSummary& s : job->ranks) {
    for (RankCollectives& c : s.collectives) {
      RankCalls r;
      r.rank = c.rank;
      for (const SourceInfo& source : s.sources)
        if (source.rank == c.rank) r.clock = SharedClock(source);
      r.calls = std::move(c.calls);
      for (const RankStep& step : s.steps) {
        if (step.rank != c.rank) continue;
        ++r.steps;
        r.step_wall_ns += step.row.wall_ns;
      }
      ranks.push_back(std::move(r));
    }
  }
  std::stable_sort(ranks.begin(), ranks.end(),
                   [](const RankCalls& x, const RankCalls& y) { return x.rank < y.rank; });
  return ranks;
}

Status RequireCollectiveLedger(const RankSummary& summary, const std::string& path) {
  if (summary.collectives_recorded) return Status::Ok();
  return Status(ErrorCode::kInvalidArgument,
                path +
                    ": this summary holds no collective ledger (an older profana summarize "
                    "wrote it, or it was merged with one): summarize the traces again");
}

}  // namespace profana::job
