// The critical path overlay: the trace's own JSON written back with HTA's marks
// (overlay_critical_path_analysis): "critical": 1 in the args of every event on a critical path,
// and a pair of flow events ("s" and "f", name and category "critical_path", args weight,
// critical and type, the edge's type) per critical edge that HTA draws by default (dependency,
// kernel launch delay and sync edges; every critical edge with all_edges). Every other byte of the
// file is kept, so every args field survives, and Perfetto and chrome://tracing open the result.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "profana/model/source_events.h"
#include "profana/model/trace_names.h"
#include "profana/passes/critical_path/critical_path.h"

namespace profana::report {

// The flow events' ids start here, above the correlation ids Kineto uses for its own flows.
constexpr int64_t kOverlayFirstFlowId = 1'000'000'000'000;

struct OverlayCounts {
  int64_t marked_events = 0;  // elements that got "critical": 1
  int64_t flow_pairs = 0;
};

// document: the bytes the trace was imported from (SourceEvents' offsets point into them); `names`
// the trace's: a flow event is placed by its event's kind, times and thread.
// extra_events: more events for the same array, each preceded by a comma (the analysis tracks
// of analysis_overlay.h), written after the flows.
std::string WriteCriticalPathOverlay(std::string_view document, const SourceEvents& source,
                                     TraceNames names,
                                     const std::vector<passes::CpWindowResult>& windows,
                                     bool all_edges, OverlayCounts* counts = nullptr,
                                     std::string_view extra_events = {});

}  // namespace profana::report
