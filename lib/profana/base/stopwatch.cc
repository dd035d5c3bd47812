#include "profana/base/stopwatch.h"

#include <sys/resource.h>

namespace profana {

double PeakRssMb() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

}  // namespace profana
