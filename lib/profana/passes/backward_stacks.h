// PropagateBackwardStacks: PyTorch's _set_backward_stacktraces. Events under a backward function
// take the stack of the forward event with the same (sequence number, forward thread).
#pragma once

#include <vector>

#include "profana/passes/function_events.h"

namespace profana::passes {

// Over any per-event stacks (ids of whatever trie they index): BuildFunctionEvents applies it to
// the "Call stack" stacks; the stacks pass to stacks rebuilt from python_function events.
void PropagateBackwardStacks(const Trace& trace, const FunctionEventList& events,
                             std::vector<StackId>* stacks);

}  // namespace profana::passes
