// CountEvents: the counts `profana info` shows of a trace's duration events: how many of each
// activity kind, the time they span, and how many host threads and device streams carry them.
#pragma once

#include <cstdint>
#include <map>

#include "profana/model/trace.h"

namespace profana::passes {

struct EventCounts {
  std::map<ActivityKind, uint64_t> events_by_kind;  // kinds with at least one event
  int64_t first_ns = 0;                             // the earliest start; 0 without events
  int64_t last_ns = 0;                              // the latest end; 0 without events
  // Threads by what runs on them: host events, device activity (IsDeviceActivity). A thread with
  // both counts in both.
  uint64_t cpu_threads = 0;
  uint64_t device_streams = 0;
};

EventCounts CountEvents(const Trace& trace);

}  // namespace profana::passes
