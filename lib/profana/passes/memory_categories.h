// CategoriseMemoryBlocks: the category of each block of a replayed memory timeline, inferred the
// way PyTorch 2.x's torch/profiler/_memory_profiler.py infers it (MemoryProfile's _set_* rules),
// from what a trace file keeps instead of the tensor identities, versions and Python tracer the
// live profiler has. Pure function of the trace, its FunctionEvents and the replay; prints
// nothing. Every rule, and what stands in for what, is in docs/memory.md ("Categories").
//
// What stands in for a tensor identity: the ops that allocated and freed a block (and their
// ancestors: backward functions, Optimizer.step#..., Optimizer.zero_grad#...), the block's life
// relative to the forward pass, the backward pass and the optimizer step, and record_shapes' input
// sizes (a block no op input could be is no tensor, as PyTorch gives such an allocation no id).
#pragma once

#include <cstdint>
#include <string_view>

#include "profana/model/trace.h"
#include "profana/passes/function_events.h"
#include "profana/passes/memory_timeline.h"

namespace profana::passes {

// The annotation PyTorch's optimizers record around each step: "Optimizer.step#SGD.step".
inline constexpr std::string_view kOptimizerStepPrefix = "Optimizer.step#";

// An op of the FunctionEvents as an index, -1 for none (a record no op made).
inline int32_t OpIndex(FnEventId op) { return op.valid() ? static_cast<int32_t>(op.value) : -1; }

// Sets MemoryBlock::category of every block of `t` (whose records already know their ops).
void CategoriseMemoryBlocks(const Trace& trace, const FunctionEventList& events, MemoryTimeline* t);

}  // namespace profana::passes
