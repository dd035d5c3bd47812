#include "profana/base/byte_size.h"

#include <fmt/format.h>

namespace profana {

std::string FormatBytes(int64_t bytes) {
  static const char* const kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes), a = v < 0 ? -v : v;
  if (a < 1024) return fmt::format("{} B", bytes);
  int u = -1;
  while (a >= 1024 && u < 3) {
    a /= 1024;
    v /= 1024;
    ++u;
  }
  return fmt::format("{:.2f} {}", v, kUnits[u]);
}

}  // namespace profana
