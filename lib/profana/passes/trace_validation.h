// ValidateTrace: what `profana check FILE` without a budget verifies, after the rules of
// PyTorch's torch/profiler/_trace_validator.py, where a trace file has the data:
//  * device activity starting before the runtime call that launched it (joined on correlation);
//  * correlation ids that match nothing: device activity without its launch, and launch calls
//    (cudaLaunchKernel, ...) without device activity;
//  * host events on one thread that overlap without nesting (the op tree ignores them);
//  * device activities on one stream that overlap (a stream runs one at a time).
// Launches and activities cut off by the edges of the capture (within the first or last
// millisecond of the device activity) are counted apart: the profiler starts and stops there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profana/model/launch_index.h"
#include "profana/model/trace.h"

namespace profana::passes {

struct ValidationCheck {
  const char* name;  // "kernels_before_launch", ...
  const char* description;
  uint64_t count = 0;
  std::optional<EventId> first_event = std::nullopt;  // the first offender
  bool fatal = true;  // counts against the check (informational counts do not)
};

std::vector<ValidationCheck> ValidateTrace(const Trace& trace, const LaunchIndex& launches);

}  // namespace profana::passes
