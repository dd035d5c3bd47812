// The first bound that keeps every sum over one trace exact in 64 bits (the second is
// passes/event_sums.h). Passes add durations (an op's CPU total, a kernel's total, self times,
// stack weights, kernel statistics) and byte counts (the memory timeline's levels, the sizes of
// copies in kernel statistics) in int64_t: each such sum, each of its events or records counted
// once, is at most twice the trace's total duration, or its total bytes. CheckSumsFit refuses a
// trace whose totals could pass that: its times cannot be right (they add up to decades), and no
// output of it could be. Sums over several traces (a job's ranks) are checked as they are added
// (job/rank_summary.h).
#pragma once

#include <string>

#include "profana/base/status.h"
#include "profana/model/trace.h"

namespace profana {

// The most the durations of one trace's events, and its memory records' sizes, may add up to:
// 2^61 (73 years of nanoseconds, 2 EiB), so that twice it, and a sum below it plus another, fits
// in int64_t.
constexpr int64_t kMaxTraceTotal = int64_t{1} << 61;

// Ok, or kMalformed naming `name` (the input), the total that is too large and the events (or
// memory records) that make most of it.
Status CheckSumsFit(const Trace& trace, const std::string& name);

}  // namespace profana
