// Where an allocator snapshot's allocation was made, from its stack: the frame a user reads first.
// Two frames, grouped as a pair:
//  * `python`: the innermost Python frame (a `.py` file) outside PyTorch's own package
//    (`.../torch/...`), e.g. `resnet.py:93 forward`; else the innermost Python frame at all.
//  * `frame`: the innermost native frame that is neither what torch/cuda/_memory_viz.py's
//    _frame_filter omits (the unwinder, the interpreter's loop, boxing and registration wrappers)
//    nor the allocator and its tensor factories and dispatch (CUDACachingAllocator, at::empty,
//    at::_ops::..., c10::impl::..., the generated wrapper_* and VariableType kernels): the op's
//    own implementation, e.g. `at::native::batch_norm_cuda(...)`.
// Either may be missing (a stack recorded with stacks="python" has no native frames; the autograd
// engine's thread has no Python frames); a block without frames has neither.
#pragma once

#include <cstdint>

#include "profana/model/allocator_snapshot.h"

namespace profana::passes {

inline constexpr uint32_t kNoFrame = UINT32_MAX;

struct AllocationSite {
  uint32_t python = kNoFrame;  // index into AllocatorSnapshot::frames
  uint32_t frame = kNoFrame;
  bool operator==(const AllocationSite& o) const { return python == o.python && frame == o.frame; }
};

// Per stack, computed once (stacks repeat across thousands of blocks).
class AllocationSites {
 public:
  explicit AllocationSites(const AllocatorSnapshot& snapshot);
  const AllocationSite& of(SnapshotStackId stack) const { return sites_[stack.value]; }

 private:
  std::vector<AllocationSite> sites_;
};

// A site as one key (for grouping).
inline uint64_t SiteKey(const AllocationSite& s) { return uint64_t{s.python} << 32 | s.frame; }

}  // namespace profana::passes
