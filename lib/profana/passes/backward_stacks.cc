#include "profana/passes/backward_stacks.h"

#include <algorithm>

#include "profana/base/flat_hash_map.h"

namespace profana::passes {

void PropagateBackwardStacks(const Trace& trace, const FunctionEventList& o,
                             std::vector<StackId>* stacks) {
  // _set_backward_stacktraces: the first non-backward event per (sequence_nr, thread) lends its
  // stack (possibly empty) to every event under a backward function of that (sequence_nr,
  // forward thread).
  size_t m = o.size();
  // When no event has a stack, every event keeps the empty one: nothing to lend.
  if (std::all_of(stacks->begin(), stacks->end(), [](StackId s) { return s.value == 0; })) return;
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
  // Which backward function each event is under (-1: none); the keys those will ask for.
  std::vector<int32_t> bw(m, -1);
  FlatHashMap<Key, uint32_t, KeyHash> fwd_stacks(1024);  // key -> stack id + 1 (0: not seen yet)
  FlatHashMap<int64_t, uint32_t> fwd_by_seq(1024);
  for (size_t i = 0; i < m; ++i) {
    if (o.scope[i] == 1) {
      bw[i] = static_cast<int32_t>(i);
      fwd_stacks.try_emplace(Key{o.sequence_nr[i], o.fwd_thread[i]}, 0);
      fwd_by_seq.try_emplace(o.sequence_nr[i], 0);
    } else if (o.parent[i].valid()) {
      bw[i] = bw[o.parent[i].value];
    }
  }
  if (fwd_by_seq.size() == 0) return;
  // The first forward event per key lends its stack; only keys a backward function asks for are
  // kept, so the maps stay as small as the backward pass.
  for (size_t i = 0; i < m; ++i) {
    if (bw[i] >= 0) continue;
    int64_t tid = trace.threads[o.thread[i].value].tid;
    uint32_t* s = fwd_stacks.find(Key{o.sequence_nr[i], tid});
    if (s && *s == 0) *s = (*stacks)[i].value + 1;
    uint32_t* q = fwd_by_seq.find(o.sequence_nr[i]);
    if (q && *q == 0) *q = (*stacks)[i].value + 1;
  }
  // Kineto files write OS thread ids as tid but RecordFunction ids as "Fwd thread id". When no
  // CPU thread has the forward thread's number, match on the sequence number alone.
  std::vector<int64_t> tids;
  for (const ThreadInfo& t : trace.threads) tids.push_back(t.tid);
  std::sort(tids.begin(), tids.end());
  for (size_t i = 0; i < m; ++i) {
    if (bw[i] < 0) continue;
    int32_t p = bw[i];
    const uint32_t* it = fwd_stacks.find(Key{o.sequence_nr[p], o.fwd_thread[p]});
    if (it && *it) {
      (*stacks)[i] = StackId(*it - 1);
    } else if (o.sequence_nr[p] >= 0 && o.fwd_thread[p] > 0 &&
               !std::binary_search(tids.begin(), tids.end(), int64_t{o.fwd_thread[p]})) {
      const uint32_t* s = fwd_by_seq.find(o.sequence_nr[p]);
      (*stacks)[i] = s && *s ? StackId(*s - 1) : StackId(0);
    } else {
      (*stacks)[i] = StackId(0);
    }
  }
}

}  // namespace profana::passes
