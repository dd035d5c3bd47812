// The progress line of a slow load: "profana: reading big.json: 412.0 MiB of 1.0 GiB, 205.3
// MiB/s, 3 s left", rewritten in place on standard error while a trace loads. Only for a
// terminal (main() decides), only once a load has taken a second (a fast load shows nothing), at
// most four times a second, and wiped when the load ends, so no trace of it stays in the output.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "profana/base/output_sink.h"
#include "profana/base/progress.h"

namespace profana {

// The line's text, without the carriage return: bytes so far, of the total when it is known,
// the rate, and the time left when the total is known.
std::string ProgressText(const std::string& name, uint64_t done, uint64_t total, double seconds);

class ProgressMeter {
 public:
  using Clock = std::function<double()>;  // seconds since some fixed point
  // Writes to `terminal` (null: the meter does nothing). The clock is the steady clock unless
  // a test gives its own.
  ProgressMeter(OutputSink* terminal, std::string name, Clock clock = {});
  ~ProgressMeter();  // wipes the line, if one was shown
  ProgressMeter(const ProgressMeter&) = delete;
  ProgressMeter& operator=(const ProgressMeter&) = delete;

  // What a reader calls (LoadOptions::limits.progress); empty when there is no terminal.
  ProgressFn Callback();
  void Update(uint64_t done, uint64_t total);

 private:
  OutputSink* terminal_;
  std::string name_;
  Clock clock_;
  double start_;
  double shown_at_ = -1;  // when the line was last written; < 0: never
};

}  // namespace profana
