// Which events PyTorch marks async although the file does not say so. c10d's Work records the
// collective's profiling title ("nccl:all_reduce", "gloo:broadcast", ...) as a RecordFunction it
// sets async (it may end on another thread when the work completes), so PyTorch keeps it out of
// the op tree: no parent, no children, self CPU and CUDA time 0, "CPU total %" printed as 0. An
// event of the same name nested in it (ProcessGroupNCCL records some titles twice) is not async.
// Seen in live PyTorch 2.11 sessions (testdata/live/nccl_single_rank).
#pragma once

#include <cstdint>
#include <vector>

#include "profana/model/trace.h"

namespace profana::passes {

// One flag per trace event; empty when no event is async.
std::vector<uint8_t> AsyncWorkAnnotations(const Trace& trace);

}  // namespace profana::passes
