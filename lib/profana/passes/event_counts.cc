#include "profana/passes/event_counts.h"

#include <array>
#include <vector>

namespace profana::passes {

EventCounts CountEvents(const Trace& t) {
  EventCounts s;
  const EventTable& e = t.events;
  std::array<uint64_t, 256> by_kind{};  // indexed by the kind's value: no lookup per event
  std::vector<uint8_t> thread_kind(t.threads.size(), 0);  // bit 1: host events, bit 2: device
  for (size_t i = 0; i < e.size(); ++i) {
    ++by_kind[static_cast<uint8_t>(e.kind[i])];
    if (i == 0 || e.start_ns[i] < s.first_ns) s.first_ns = e.start_ns[i];
    if (i == 0 || e.end_ns[i] > s.last_ns) s.last_ns = e.end_ns[i];
    thread_kind[e.thread[i].value] |= IsDeviceActivity(e.kind[i]) ? 2 : 1;
  }
  for (size_t k = 0; k < by_kind.size(); ++k)
    if (by_kind[k]) s.events_by_kind[static_cast<ActivityKind>(k)] = by_kind[k];
  for (uint8_t k : thread_kind) {
    s.cpu_threads += (k & 1) != 0;
    s.device_streams += (k & 2) != 0;
  }
  return s;
}

}  // namespace profana::passes
