#include "profana/passes/backward_stacks.h"

#include <algorithm>

#include "profana/base/flat_hash_map.h"

namespace profana::passes {

namespace {

int64_t ThreadNumber(const Trace& trace, const ThreadInfo& t) {
  if (!t.tid_text.value) return t.tid;
  std::string_view s = trace.str(t.tid_text);
  if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string_view::npos)
    return -1;
  int64_t v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}

struct Key {
  int64_t seq, thread;
  bool operator==(const Key& k) const { return seq == k.seq && thread == k.thread; }
};
struct KeyHash {
  uint64_t operator()(const Key& k) const {
    return MixHash64(static_cast<uint64_t>(k.seq) * 0x9e3779b97f4a7c15ull ^
                     static_cast<uint64_t>(k.thread));
  }
};

// Which backward function (scope 1) each event is under; -1: none.
std::vector<int32_t> BackwardParents(const FunctionEventList& o) {
  std::vector<int32_t> bw(o.size(), -1);
  for (size_t i = 0; i < o.size(); ++i) {
    if (o.scope[i] == 1)
      bw[i] = static_cast<int32_t>(i);
    else if (o.parent[i].valid())
      bw[i] = bw[o.parent[i].value];
  }
  return bw;
}

}  // namespace

ForwardThreads::ForwardThreads(const Trace& trace, const FunctionEventList& o) {
  for (const ThreadInfo& t : trace.threads) number_.push_back(ThreadNumber(trace, t));
  sorted_ = number_;
  std::sort(sorted_.begin(), sorted_.end());
  auto is_tid = [&](int64_t n) { return std::binary_search(sorted_.begin(), sorted_.end(), n); };
  size_t m = o.size();
  FlatHashMap<int64_t, uint32_t> asked_seq(1024);  // seq -> index into asked_ids
  std::vector<std::vector<int32_t>> asked_ids;     // the forward ids asked with that seq
  for (size_t i = 0; i < m; ++i) {
    if (o.scope[i] != 1 || o.fwd_thread[i] <= 0 || is_tid(o.fwd_thread[i])) continue;
    auto [slot, inserted] =
        asked_seq.try_emplace(o.sequence_nr[i], static_cast<uint32_t>(asked_ids.size()));
    if (inserted) asked_ids.emplace_back();
    std::vector<int32_t>& ids = asked_ids[*slot];
    if (std::find(ids.begin(), ids.end(), o.fwd_thread[i]) == ids.end())
      ids.push_back(o.fwd_thread[i]);
  }
  if (asked_ids.empty()) return;
  std::vector<int32_t> bw = BackwardParents(o);
  std::map<std::pair<int64_t, int64_t>, int64_t> votes;  // (forward id, tid) -> events
  for (size_t i = 0; i < m; ++i) {
    if (bw[i] >= 0 || o.sequence_nr[i] < 0) continue;
    const uint32_t* slot = asked_seq.find(o.sequence_nr[i]);
    if (!slot) continue;
    for (int32_t id : asked_ids[*slot]) ++votes[{id, number_[o.thread[i].value]}];
  }
  std::map<int64_t, int64_t> best;
  for (const auto& [key, n] : votes) {
    int64_t& b = best[key.first];
    if (n > b) {  // ties keep the lower thread number
      b = n;
      forward_tid_[key.first] = key.second;
    }
  }
}

int64_t ForwardThreads::Of(int32_t fwd) const {
  if (fwd <= 0) return -1;
  if (std::binary_search(sorted_.begin(), sorted_.end(), int64_t{fwd})) return fwd;
  auto it = forward_tid_.find(fwd);
  return it == forward_tid_.end() ? -1 : it->second;
}

void PropagateBackwardStacks(const Trace& trace, const FunctionEventList& o,
                             std::vector<StackId>* stacks) {
  // _set_backward_stacktraces: the first non-backward event per (sequence_nr, thread) lends its
  // stack (possibly empty) to every event under a backward function of that (sequence_nr,
  // forward thread), with threads matched as ForwardThreads says.
  size_t m = o.size();
  // When no event has a stack, every event keeps the empty one: nothing to lend.
  if (std::all_of(stacks->begin(), stacks->end(), [](StackId s) { return s.value == 0; })) return;
  std::vector<int32_t> bw = BackwardParents(o);
  if (std::all_of(bw.begin(), bw.end(), [](int32_t b) { return b < 0; })) return;
  ForwardThreads threads(trace, o);

  // Only keys a backward function asks for are kept, so the map stays as small as the backward
  // pass.
  FlatHashMap<Key, uint32_t, KeyHash> fwd_stacks(1024);  // key -> stack id + 1 (0: not seen yet)
  for (size_t i = 0; i < m; ++i) {
    if (o.scope[i] != 1) continue;
    int64_t t = threads.Of(o.fwd_thread[i]);
    if (t >= 0) fwd_stacks.try_emplace(Key{o.sequence_nr[i], t}, 0);
  }
  for (size_t i = 0; i < m; ++i) {
    if (bw[i] >= 0) continue;
    uint32_t* s = fwd_stacks.find(Key{o.sequence_nr[i], threads.Number(o.thread[i])});
    if (s && *s == 0) *s = (*stacks)[i].value + 1;
  }
  for (size_t i = 0; i < m; ++i) {
    if (bw[i] < 0) continue;
    int32_t p = bw[i];
    int64_t t = threads.Of(o.fwd_thread[p]);
    const uint32_t* it = t >= 0 ? fwd_stacks.find(Key{o.sequence_nr[p], t}) : nullptr;
    (*stacks)[i] = it && *it ? StackId(*it - 1) : StackId(0);
  }
}

}  // namespace profana::passes
