// One file, several ranks: an Nsight Systems export of a `torchrun` job (or any trace) records
// every process of the node, each launching work on its own GPUs. The whole-job commands expect
// one rank per process, so such a trace is split: one Trace per process that launched device
// activity, holding that process's host threads and the device activity they launched (the
// --thread filter's rule: device work follows its launch), plus any device activity without a
// launch on that process's devices.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/base/status.h"
#include "profana/model/trace.h"

namespace profana::job {

// The host processes whose threads launched device activity, by pid, ascending.
std::vector<int64_t> LaunchingProcesses(const Trace& trace);

struct ProcessPart {
  int64_t pid = 0;
  Trace trace;
};

// One part per launching process, in pid order, when there are two or more; empty otherwise
// (the trace is one rank as it is).
Result<std::vector<ProcessPart>> SplitByProcess(const Trace& trace);

}  // namespace profana::job
