// The clock of the memory timeline's exports: PyTorch's times are Unix-epoch nanoseconds, and
// Kineto writes a trace's times less baseTimeNanoseconds. What to add to a trace time to get
// PyTorch's (0 when the file has no base time: its own clock).
#pragma once

#include <cstdint>

#include "profana/model/trace.h"

namespace profana::passes {

inline int64_t EpochShiftNs(const Trace& trace) {
  return trace.metadata.base_time_ns != kNoId ? trace.metadata.base_time_ns : 0;
}

}  // namespace profana::passes
