// Fixtures that a layer's unit tests and the CLI tests of the same topic share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/job/collective_calls.h"
#include "profana/job/rank_summary.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"
#include "profana/passes/memory_timeline.h"

namespace profana::test {

// Two threads, nested ops, a kernel, a memory record, flows, a Call stack and a diagnostic.
Trace SmallTrace();

// Every trace of testdata's oracle/, traces/ and bad/ folders (the oracle sessions, the real
// traces, the damaged inputs), sorted.
std::vector<std::string> TraceFilesInTestData();

// The real traces, in every format: each file under testdata/traces but the provenance notes, and
// each live session's trace.json.gz, sorted.
std::vector<std::string> RealTraceFiles();

// A trace of testdata/ with its function events and its memory timeline.
struct BuiltTimeline {
  Trace trace;
  passes::FunctionEventList events;
  passes::MemoryTimeline timeline;
};
BuiltTimeline BuildTimeline(const std::string& relative);

// A trace's summary as `profana summarize` makes it, as rank `rank`.
job::RankSummary SummarizeAsRank(const std::string& file, int64_t rank);

// One summary per rank of the DLRM job (testdata/traces/param/dlrm_kineto), each as
// `profana summarize` makes it.
const std::vector<job::RankSummary>& DlrmRankSummaries();

// A collective call of `kind` from start_us to end_us (microseconds), in `group`, of `bytes` on
// `group_size` ranks (-1: not recorded).
job::CollectiveCall CollectiveCallOf(job::CollectiveKind kind, int64_t start_us, int64_t end_us,
                                     std::string group = "", int64_t bytes = -1,
                                     int64_t group_size = -1);

// testdata/nvprof/small.sql, with more SQL appended, built into a database file; its path.
std::string BuildNvprofDatabase(const std::string& name, const std::string& extra_sql = "");

}  // namespace profana::test
