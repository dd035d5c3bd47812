#include "profana/base/worker_pool.h"

#include <sched.h>

namespace profana {

size_t AvailableCores() {
#ifdef CPU_COUNT
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<size_t>(n);
  }
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace profana
