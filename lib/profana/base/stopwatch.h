// Phase timings and the peak resident memory, for the --verbose lines the library hands back
// (job/load_input.h) and the app prints.
#pragma once

#include <chrono>

namespace profana {

// Milliseconds since construction or the last Lap().
class Stopwatch {
 public:
  double Lap() {
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// The process's peak resident memory so far, in MB.
double PeakRssMb();

}  // namespace profana
