// Whose lateness a rank's critical path waits on: the communication kernels on each rank's path
// are matched to the job's collectives (collective_analysis.h), and the part of each that is the
// rank's wait (its duration minus the collective's transfer time) is attributed to the rank that
// arrived last. A rank that arrived last itself waited on nobody.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "profana/job/collective_analysis.h"
#include "profana/model/trace.h"
#include "profana/passes/critical_path/critical_path.h"

namespace profana::job {

// A communication kernel's span on one of a rank's critical paths.
struct PathCommSpan {
  size_t window = 0;            // which of the rank's windows
  int64_t kernel_start_ns = 0;  // the kernel's start, on the rank's own clock
  int64_t ns = 0;               // the span's time on the path
};

struct RankPathComm {
  int64_t rank = -1;
  std::vector<CollectiveCall> calls;  // FindCollectiveCalls of the rank's trace
  std::vector<PathCommSpan> spans;
};

// A rank's collective calls and the communication spans on its critical paths.
RankPathComm PathCommOf(const Trace& trace, const passes::CriticalPathResult& result);

// Per rank (in the order given), per window: (the rank waited on, ns), most first: the job's
// collectives are matched across ranks (ranks taken in rank order, aligned as `collectives`
// aligns them) and each wait goes to the rank that arrived last.
using CommWaits = std::vector<std::vector<std::vector<std::pair<int64_t, int64_t>>>>;
CommWaits JobCommWaits(const std::vector<RankPathComm>& ranks, size_t windows_per_rank_max);

// The same, given the matched collectives.
CommWaits AttributeCommWaits(const std::vector<RankPathComm>& ranks,
                             const CollectivesResult& collectives, size_t windows_per_rank_max);

}  // namespace profana::job
