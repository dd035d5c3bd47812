// PropagateBackwardStacks: PyTorch's _set_backward_stacktraces. Events under a backward function
// take the stack of the forward event with the same (sequence number, forward thread).
#pragma once

#include <map>
#include <vector>

#include "profana/passes/function_events.h"

namespace profana::passes {

// PyTorch's threads are RecordFunction ids (1, 2, ... per thread), which a file keeps only as
// "Fwd thread id"; its events carry OS thread ids (written as strings by 2021 Kineto). This maps
// one to the other: a forward id that is itself a thread number of the trace is that thread; any
// other maps to the thread that ran most of the forward events with the sequence numbers that
// backward functions ask for under it. 0 (no forward thread) maps to nothing.
class ForwardThreads {
 public:
  ForwardThreads(const Trace& trace, const FunctionEventList& events);
  // The OS thread number a forward id stands for; -1 for none.
  int64_t Of(int32_t fwd) const;
  // The number of a trace thread: its tid, or the digits of a tid written as a string; -1 for a
  // named track ("stream 7").
  int64_t Number(ThreadId thread) const { return number_[thread.value]; }

 private:
  std::vector<int64_t> number_;  // per trace thread
  std::vector<int64_t> sorted_;  // the numbers, sorted
  std::map<int64_t, int64_t> forward_tid_;
};

// Over any per-event stacks (ids of whatever trie they index): BuildFunctionEvents applies it to
// the "Call stack" stacks; the stacks pass to stacks rebuilt from python_function events.
void PropagateBackwardStacks(const Trace& trace, const FunctionEventList& events,
                             std::vector<StackId>* stacks);

}  // namespace profana::passes
