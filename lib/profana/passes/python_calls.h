// The Python calls open when each event started, rebuilt from python_function events as PyTorch
// 2.x's event tree has them (collection.cpp build_tree): the stacks of a trace recorded with
// with_stack, and, with verbose=True, those of the events no op links (stacks.h,
// function_events.h). Internal to passes/.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "profana/passes/function_events.h"
#include "profana/passes/stacks.h"

namespace profana::passes {

// A frame trie of a pass's own: (parent, frame) -> node. Past kMaxStackFrames every frame folds
// into one [deeper frames] node (frame id 0) under the cut stack.
class FrameTrie {
 public:
  explicit FrameTrie(StackTable* table) : t_(table) {}
  StackId Intern(StackId parent, StringId frame) {
    uint32_t depth = t_->depth[parent.value];
    if (depth > kMaxStackFrames) return parent;
    if (depth == kMaxStackFrames) frame = StringId(0);
    uint64_t key = (static_cast<uint64_t>(parent.value) << 32) | frame.value;
    auto [it, inserted] = nodes_.try_emplace(key, StackId(static_cast<uint32_t>(t_->size())));
    if (inserted) {
      t_->parent.push_back(parent);
      t_->frame.push_back(frame);
      t_->depth.push_back(t_->depth[parent.value] + 1);
    }
    return it->second;
  }

 private:
  StackTable* t_;
  std::unordered_map<uint64_t, StackId> nodes_;
};

// Per thread, a chain of open Python calls and ops in start order. Before each event, every open
// event that ended strictly before its start is finished, and finishing one finishes everything
// opened above it on the chain. The event's parent is then the top of the chain, and its stack
// is the Python calls under it on the chain: the calls open at its start, including one that
// returns before an op ends (the record_function it entered outlives it). An op with nothing open
// on its thread hangs under the top of its forward thread's chain (PyTorch's forward_tid
// fallback). Runtime calls take the chain of their thread without joining it; a GPU user
// annotation the chain of its CPU label's thread at its device start.
//
// Per event: the node in `trie` of the calls open at its start (root first), 0 for none and for
// device work.
std::vector<StackId> OpenPythonCalls(const Trace& trace, const FunctionEventList& events,
                                     FrameTrie* trie);

}  // namespace profana::passes
