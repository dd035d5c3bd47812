// PyTorch's number formats (torch.autograd.profiler_util _format_time, _format_time_share,
// _format_memory), reproduced to the byte. Times arrive in nanoseconds and are turned into the
// microsecond doubles Python would have held.
#pragma once

#include <cstdint>
#include <string>

#include "profana/base/byte_size.h"

namespace profana::report {

std::string FormatTime(double time_us);                        // "1.234ms"
void AppendTime(std::string* out, double time_us);             // the same, appended (no allocation)
std::string FormatTimeShare(double time_us, double total_us);  // "12.34%", "NaN"
std::string FormatMemory(int64_t bytes);                       // "41.00 Kb", "256 b"

// Sizes everywhere else: profana::FormatBytes, "9.39 GiB".
using profana::FormatBytes;

}  // namespace profana::report
