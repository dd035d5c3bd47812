// InnermostOpFinder: which CPU FunctionEvent was running on a thread at a time t: the innermost
// event whose interval holds t, that is the latest in function_events order among those that
// started by t and had not ended. The memory timeline asks it which op made each allocation, and
// GPU idle time which op the host was in during each gap. Built once, then asked in any order:
// logarithmic in the thread's events, constant when a thread's times are asked in rising order
// (it remembers where each thread's last answer was, so one finder serves one caller at a time),
// plus the nesting walked out of.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "profana/passes/function_events.h"

namespace profana::passes {

class InnermostOpFinder {
 public:
  enum class Interval : uint8_t {
    kClosed,    // [start, end]: PyTorch counts a [memory] record at an op's end in the op
    kHalfOpen,  // [start, end): the op tree's containment
  };

  // Looks among the CPU FunctionEvents that are not [memory] events. `thread_group` (one entry
  // per trace thread; empty: each thread is its own) makes threads that are one thread in fact
  // see each other's events.
  InnermostOpFinder(const Trace& trace, const FunctionEventList& events, Interval interval,
                    const std::vector<uint32_t>& thread_group = {});

  std::optional<FnEventId> At(ThreadId thread, int64_t t) const;

 private:
  Interval interval_;
  std::vector<uint32_t> group_;  // trace thread -> group (identity when empty)
  // Per group, its events in list order: ops_[begin_[g] .. begin_[g + 1]).
  std::vector<uint32_t> begin_;
  std::vector<FnEventId> ops_;
  std::vector<int64_t> start_, end_;
  // Per position: the nearest earlier position of its group whose event ends later, or UINT32_MAX.
  // Every event between the two ends no later, so a walk out of an event that ended before t
  // skips them all.
  std::vector<uint32_t> outer_;
  // Per group: how many of its events had started at the time last asked, and that time.
  mutable std::vector<uint32_t> last_started_;
  mutable std::vector<int64_t> last_t_;
};

}  // namespace profana::passes
