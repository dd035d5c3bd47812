// FLOPs per op, as PyTorch's profiler counts them (torch/csrc/profiler/util.cpp: saveExtraArgs
// picks the inputs, computeFlops applies the formula; FunctionEvent.flops holds the result and
// key_averages() sums it). A Kineto file holds no counts, only the inputs (model/flop_inputs.h);
// the count is worked out here the same way, whatever the trace's header says about with_flops,
// so analyses may use it on any trace that recorded input shapes. Tables show the column only for
// traces recorded with_flops, as PyTorch does (docs/semantics.md "FLOPs").
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "profana/model/flop_inputs.h"
#include "profana/model/trace.h"

namespace profana::passes {

// PyTorch's count for one call of `op_name` with these inputs: 0 for ops it does not count and
// where its formula gives up (too few inputs, a non-tensor where a tensor belongs, a kernel that is
// not 4-D, ...: its TORCH_WARN cases). The arithmetic is PyTorch's, in unsigned 64-bit integers.
uint64_t OpFlops(std::string_view op_name, const std::vector<FlopInput>& inputs);

// Every event's count, worked out once per distinct (name, inputs) of the trace.
class EventFlops {
 public:
  explicit EventFlops(const Trace& trace);
  // FunctionEvent.flops of the trace event: 0 where PyTorch counts none (every event but the
  // counted ops, and those whose inputs were not recorded).
  uint64_t Of(EventId event) const {
    if (by_inputs_.empty()) return 0;
    StringId inputs = trace_.events.flop_inputs[event.value];
    if (!inputs.value) return 0;
    auto it = by_inputs_.find(Key(trace_.events.trace_name[event.value], inputs));
    return it == by_inputs_.end() ? 0 : it->second;
  }
  // Whether some event has a count above 0.
  bool any() const { return any_; }

 private:
  static uint64_t Key(StringId name, StringId inputs) {
    return (uint64_t{name.value} << 32) | inputs.value;
  }
  const Trace& trace_;
  std::unordered_map<uint64_t, uint64_t> by_inputs_;
  bool any_ = false;
};

// The trace says it was recorded with_flops and has ops PyTorch counts, but none of them kept the
// inputs a count needs ("Input Dims": record_shapes=True): PyTorch's table had a FLOPs column that
// this trace cannot give.
bool FlopsPromisedButMissing(const Trace& trace);

}  // namespace profana::passes
