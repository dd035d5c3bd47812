#include "profana/reporters/number_format.h"

#include <cstdlib>
#include <iterator>

#include "fmt/format.h"

namespace profana::report {

void AppendTime(std::string* out, double time_us) {
  constexpr double kUsInSecond = 1000.0 * 1000.0;
  constexpr double kUsInMs = 1000.0;
  auto to = std::back_inserter(*out);
  if (time_us >= kUsInSecond)
    fmt::format_to(to, "{:.3f}s", time_us / kUsInSecond);
  else if (time_us >= kUsInMs)
    fmt::format_to(to, "{:.3f}ms", time_us / kUsInMs);
  else
    fmt::format_to(to, "{:.3f}us", time_us);
}

std::string FormatTime(double time_us) {
  std::string out;
  AppendTime(&out, time_us);
  return out;
}

std::string FormatTimeShare(double time_us, double total_us) {
  if (total_us == 0) return "NaN";
  return fmt::format("{:.2f}%", time_us * 100.0 / total_us);
}

std::string FormatMemory(int64_t bytes, MemoryUnits units) {
  constexpr uint64_t kKb = 1024, kMb = 1024 * kKb, kGb = 1024 * kMb;
  const bool v2 = units == MemoryUnits::kPyTorch2;
  // Unsigned: the magnitude of INT64_MIN does not fit in an int64_t.
  uint64_t magnitude = bytes < 0 ? 0 - static_cast<uint64_t>(bytes) : static_cast<uint64_t>(bytes);
  if (magnitude >= kGb) return fmt::format("{:.2f} {}", bytes * 1.0 / kGb, v2 ? "GB" : "Gb");
  if (magnitude >= kMb) return fmt::format("{:.2f} {}", bytes * 1.0 / kMb, v2 ? "MB" : "Mb");
  if (magnitude >= kKb) return fmt::format("{:.2f} {}", bytes * 1.0 / kKb, v2 ? "KB" : "Kb");
  return fmt::format("{} {}", bytes, v2 ? "B" : "b");
}

}  // namespace profana::report
