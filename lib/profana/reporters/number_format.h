// PyTorch's number formats (torch.autograd.profiler_util _format_time, _format_time_share,
// _format_memory), reproduced to the byte. Times arrive in nanoseconds and are turned into the
// microsecond doubles Python would have held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "profana/base/byte_size.h"

namespace profana::report {

std::string FormatTime(double time_us);  // "1.234ms"
// A duration in nanoseconds, as FormatTime writes it.
inline std::string FormatTimeNs(int64_t ns) { return FormatTime(static_cast<double>(ns) / 1000.0); }
void AppendTime(std::string* out, double time_us);  // the same, appended (no allocation)
// The same written at `at`, which has kTimeTextRoom bytes of room: the text's end, or nullptr
// (nothing written) for the rare times AppendTime hands to fmt (negative, huge, a rounding tie).
constexpr size_t kTimeTextRoom = 32;
char* WriteTime(char* at, double time_us);
std::string FormatTimeShare(double time_us, double total_us);  // "12.34%", "NaN"

// _format_memory's unit spelling changed between releases: PyTorch 2.x prints "41.00 KB" and
// "256 B", 1.13 printed "41.00 Kb" and "256 b". The numbers are the same.
enum class MemoryUnits : uint8_t { kPyTorch2, kPyTorch113 };
std::string FormatMemory(int64_t bytes, MemoryUnits units = MemoryUnits::kPyTorch2);

// Sizes everywhere else: profana::FormatBytes, "9.39 GiB".
using profana::FormatBytes;

}  // namespace profana::report
