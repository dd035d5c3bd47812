// The analyses as extra tracks of a Chrome trace (`profana convert TRACE -o OUT.json --annotate`):
// the steps as slices, the GPU's idle gaps as slices named by their cause, each stream's queue
// depth and each device's allocated and reserved memory as counter tracks, and each `advise`
// finding as an instant event at the start of the first step it was seen in. The events are
// added to the trace's own JSON by the overlay writer of critical_path_overlay.h, which keeps
// every other byte (so every args field survives) and marks the critical path.
// They take the Trace: the tracks are placed by its events' times, threads and memory records.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "profana/job/advice/advice.h"
#include "profana/job/trace_analyses.h"
#include "profana/model/source_events.h"
#include "profana/model/trace.h"

namespace profana::report {

// The process the tracks are drawn under: a pid no Kineto trace uses for a device or a process.
constexpr int64_t kOverlayPid = 999'999'999;

struct AnalysisTrackCounts {
  int64_t steps = 0;
  int64_t idle_gaps = 0;
  int64_t queue_points = 0;
  int64_t memory_points = 0;
  int64_t findings = 0;
};

// The events, each preceded by a comma (Trace Event Format: "X" slices, "C" counters, "M" track
// names), to go after the trace's last event.
std::string WriteAnalysisTracks(const Trace& trace, const job::TraceAnalyses& analyses,
                                const std::vector<job::Finding>& findings,
                                AnalysisTrackCounts* counts = nullptr);

// The whole annotated trace: `document` (the bytes the trace was imported from, `source` where
// its events lie) with the tracks, the findings of every advise rule, and the critical path of
// each step marked as `critical-path --overlay` marks it.
std::string WriteAnnotatedTrace(std::string_view document, const SourceEvents& source,
                                const Trace& trace, const passes::FunctionEventList& events,
                                AnalysisTrackCounts* counts = nullptr);

}  // namespace profana::report
