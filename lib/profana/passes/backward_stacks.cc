#include "profana/passes/backward_stacks.h"

#include <algorithm>
#include <map>

#include "profana/base/flat_hash_map.h"

namespace profana::passes {

namespace {

// The thread number a trace wrote: its tid, or the digits of a tid written as a string (2021
// Kineto writes "tid": "25738"). -1 for a named track ("stream 7"), which matches nothing.
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

}  // namespace

void PropagateBackwardStacks(const Trace& trace, const FunctionEventList& o,
                             std::vector<StackId>* stacks) {
  // _set_backward_stacktraces: the first non-backward event per (sequence_nr, thread) lends its
  // stack (possibly empty) to every event under a backward function of that (sequence_nr,
  // forward thread).
  size_t m = o.size();
  // When no event has a stack, every event keeps the empty one: nothing to lend.
  if (std::all_of(stacks->begin(), stacks->end(), [](StackId s) { return s.value == 0; })) return;
  std::vector<int64_t> thread_number(trace.threads.size());
  for (size_t t = 0; t < trace.threads.size(); ++t)
    thread_number[t] = ThreadNumber(trace, trace.threads[t]);
  std::vector<int64_t> tids = thread_number;
  std::sort(tids.begin(), tids.end());
  auto is_tid = [&](int64_t n) { return std::binary_search(tids.begin(), tids.end(), n); };

  // Which backward function each event is under (-1: none).
  std::vector<int32_t> bw(m, -1);
  bool any = false;
  for (size_t i = 0; i < m; ++i) {
    if (o.scope[i] == 1) {
      bw[i] = static_cast<int32_t>(i);
      any = true;
    } else if (o.parent[i].valid()) {
      bw[i] = bw[o.parent[i].value];
    }
  }
  if (!any) return;

  // PyTorch compares RecordFunction thread ids (1, 2, ...), which a file keeps only as the
  // backward function's "Fwd thread id"; forward events carry the OS thread id. A forward id that
  // is itself a thread of the trace is taken as one; any other maps to the thread that ran most
  // of the forward events with the sequence numbers asked for under it. 0 (no forward thread, as
  // AccumulateGrad's) is no RecordFunction thread and matches nothing.
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
  std::map<int64_t, int64_t> forward_tid;  // forward id -> OS thread number
  if (!asked_ids.empty()) {
    std::map<std::pair<int64_t, int64_t>, int64_t> votes;  // (forward id, tid) -> events
    for (size_t i = 0; i < m; ++i) {
      if (bw[i] >= 0 || o.sequence_nr[i] < 0) continue;
      const uint32_t* slot = asked_seq.find(o.sequence_nr[i]);
      if (!slot) continue;
      for (int32_t id : asked_ids[*slot]) ++votes[{id, thread_number[o.thread[i].value]}];
    }
    std::map<int64_t, int64_t> best;
    for (const auto& [key, n] : votes) {
      int64_t& b = best[key.first];
      if (n > b) {  // ties keep the lower thread number
        b = n;
        forward_tid[key.first] = key.second;
      }
    }
  }
  auto forward_thread = [&](int32_t fwd) -> int64_t {
    if (fwd <= 0) return -1;
    if (is_tid(fwd)) return fwd;
    auto it = forward_tid.find(fwd);
    return it == forward_tid.end() ? -1 : it->second;
  };

  // Only keys a backward function asks for are kept, so the map stays as small as the backward
  // pass.
  FlatHashMap<Key, uint32_t, KeyHash> fwd_stacks(1024);  // key -> stack id + 1 (0: not seen yet)
  for (size_t i = 0; i < m; ++i) {
    if (o.scope[i] != 1) continue;
    int64_t t = forward_thread(o.fwd_thread[i]);
    if (t >= 0) fwd_stacks.try_emplace(Key{o.sequence_nr[i], t}, 0);
  }
  for (size_t i = 0; i < m; ++i) {
    if (bw[i] >= 0) continue;
    uint32_t* s = fwd_stacks.find(Key{o.sequence_nr[i], thread_number[o.thread[i].value]});
    if (s && *s == 0) *s = (*stacks)[i].value + 1;
  }
  for (size_t i = 0; i < m; ++i) {
    if (bw[i] < 0) continue;
    int32_t p = bw[i];
    int64_t t = forward_thread(o.fwd_thread[p]);
    const uint32_t* it = t >= 0 ? fwd_stacks.find(Key{o.sequence_nr[p], t}) : nullptr;
    (*stacks)[i] = it && *it ? StackId(*it - 1) : StackId(0);
  }
}

}  // namespace profana::passes
