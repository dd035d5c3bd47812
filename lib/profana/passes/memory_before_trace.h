// IdentifyMemoryBeforeTrace: what each device held when the trace began (MemoryBeforeTrace): the
// allocator's Total Allocated less the replay, the blocks the trace frees, and the parameters and
// optimizer state the trace identifies without seeing them allocated. Pure function of the trace,
// its FunctionEvents and the categorised replay; prints nothing. Rules: docs/memory.md, "Memory
// from before the trace".
//
//  * Parameters are as large as one set of their gradients: the highest level the GRADIENT blocks
//    reach (a parameter's gradient has its shape and dtype; only parameters that get one count).
//  * Optimizer state, unless the trace's own steps allocate it: the number of state tensors per
//    parameter that the optimizer named by Optimizer.step#<class>.step keeps (torch/optim), times
//    the parameters.
#pragma once

#include "profana/model/trace.h"
#include "profana/passes/function_events.h"
#include "profana/passes/memory_timeline.h"

namespace profana::passes {

// Sets MemoryDeviceSummary::before_trace of every device of `t` (categories already set).
void IdentifyMemoryBeforeTrace(const Trace& trace, const FunctionEventList& events,
                               MemoryTimeline* t);

// The state tensors per parameter of a torch.optim class ("Adam"), given what its steps ran: a
// momentum buffer only where SGD's step multiplies (momentum != 0), max_exp_avg_sq only where
// Adam's takes a maximum (amsgrad). -1 for a class profana does not know.
int OptimizerStatesPerParameter(std::string_view optimizer, bool step_multiplies,
                                bool step_takes_maximum);

}  // namespace profana::passes
