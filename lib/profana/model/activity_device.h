// Which device a device activity ran on: its "device" arg when the trace records one, else the
// pid of its track (Kineto writes device activities under pid = the device index). Every pass
// that groups device work by device asks this.
#pragma once

#include <cstdint>

#include "profana/model/trace.h"

namespace profana {

inline int32_t ActivityDevice(const Trace& trace, uint32_t event) {
  int32_t device = trace.events.device[event];
  return device >= 0 ? device
                     : static_cast<int32_t>(trace.threads[trace.events.thread[event].value].pid);
}

}  // namespace profana
