#include "profana/base/memory_limit.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "fmt/format.h"
#include "profana/base/byte_size.h"

namespace profana {

uint64_t DefaultMaxMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  uint64_t physical =
      pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
  return std::max<uint64_t>(physical / 2, uint64_t{1} << 30);
}

Result<uint64_t> ParseByteSize(std::string_view text) {
  auto bad = [&] {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: expected a size such as 512M, 16G or 0 (no limit)", text));
  };
  std::string copy(text);
  char* end = nullptr;
  double value = std::strtod(copy.c_str(), &end);
  if (end == copy.c_str() || !std::isfinite(value) || value < 0) return bad();
  std::string_view unit(end);
  double scale = 1;
  if (!unit.empty()) {
    switch (unit[0]) {
      case 'k':
      case 'K':
        scale = 1024.0;
        break;
      case 'm':
      case 'M':
        scale = 1024.0 * 1024;
        break;
      case 'g':
      case 'G':
        scale = 1024.0 * 1024 * 1024;
        break;
      case 't':
      case 'T':
        scale = 1024.0 * 1024 * 1024 * 1024;
        break;
      case 'b':
      case 'B':
        break;
      default:
        return bad();
    }
    if (unit[0] != 'b' && unit[0] != 'B') unit.remove_prefix(1);
    if (!(unit.empty() || unit == "B" || unit == "b" || unit == "iB")) return bad();
  }
  double total = std::floor(value * scale);
  if (total >= 18446744073709551615.0) return bad();
  return static_cast<uint64_t>(total);
}

std::string SuggestedMemoryLimit(uint64_t limit) {
  uint64_t more = limit > (UINT64_MAX >> 3) ? limit : limit * 4;
  if (more >= (uint64_t{1} << 30)) return fmt::format("{}G", (more + (1 << 30) - 1) >> 30);
  return fmt::format("{}M", std::max<uint64_t>(1, (more + (1 << 20) - 1) >> 20));
}

Status TooLargeError(const std::string& name, const std::string& where, const std::string& what,
                     uint64_t limit) {
  return Status(ErrorCode::kTooLarge,
                fmt::format("{}: {}: {} the memory limit of {} (--max-memory); if the file is "
                            "genuine, raise the limit, e.g. --max-memory {}, or 0 for none",
                            name, where, what, FormatBytes(static_cast<int64_t>(limit)),
                            SuggestedMemoryLimit(limit)));
}

}  // namespace profana
