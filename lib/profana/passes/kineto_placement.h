// Where PyTorch 2.x puts the Kineto events of a Chrome-trace JSON file in its op tree. A Kineto
// activity takes the thread of the op it is linked to, else the thread that stopped the profiler
// (collection.cpp setKinetoTID): the main thread of its process. So two kinds of event move there:
//  * Kineto's own overhead ranges ("Activity Buffer Request", pid -1), which nothing links; they
//    nest into the main-thread op they overlap and take its correlation id, so PyTorch lists that
//    op's kernels under them too (kernel_attribution.cc);
//  * runtime and driver calls that no op links (a worker thread's launches, a watchdog's
//    cudaEventQuery), in traces that record links; they nest into whatever the main thread ran.
// Verified against live PyTorch 2.11 sessions (testdata/live). Internal to passes/.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/model/trace.h"

namespace profana::passes {

struct KinetoPlacement {
  enum : uint8_t { kOwnThread = 0, kOverhead = 1, kUnlinkedCall = 2 };
  std::vector<uint8_t> of;   // per trace event; empty when every event stays where it is
  std::vector<ThreadId> to;  // per trace event: the thread it moves to, where `of` says it moves
};

// `records_links`: TraceRecordsLinks(trace), which the caller has worked out already.
KinetoPlacement PlaceKinetoEvents(const Trace& trace, bool records_links);

// Whether a Chrome-trace JSON writer (Kineto's) wrote the trace: the rules of PyTorch's reading
// of Kineto's files apply to these formats only.
bool IsChromeTraceJson(const Trace& trace);

}  // namespace profana::passes
