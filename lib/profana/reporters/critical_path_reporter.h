// Reports of `profana critical-path`: per trace (rank) and window, the path's length against the
// window's span and the busiest stream, its split by what bounds it, the events with the most
// time on it, and the what-if predictions; for a job, the slowest rank of each step. Text,
// Markdown, CSV (one row per rank and window) and JSON (schema profana.critical-path/1,
// docs/schema/critical-path.schema.json). The rows are made from a trace and its result
// (MakeCpRank) so that a job's traces need not stay loaded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/model/trace_names.h"
#include "profana/passes/critical_path/critical_path.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

struct CpEventRow {
  std::string name;
  std::string where;  // "thread 123", "device 0 stream 7"
  int64_t ns = 0;
};

struct CpWhatIfRow {
  std::string rule;
  int64_t edges_changed = 0;
  int64_t length_ns = 0;
  std::vector<std::string> now_critical, left_path;  // names, in path order
};

struct CpWindowRow {
  std::string label;
  int64_t step = -1;
  int64_t start_ns = 0, end_ns = 0;  // the window asked for, relative to the trace's origin
  int64_t wall_ns = 0, length_ns = 0;
  int64_t bound_ns[passes::kCpBounds] = {};
  int64_t bound_edges[passes::kCpBounds] = {};
  int64_t graph_nodes = 0, graph_edges = 0;
  int64_t critical_events = 0, critical_edges = 0;
  std::string busiest_stream;  // "device 0 stream 7"; empty without device work
  int64_t busiest_stream_busy_ns = 0;
  bool cyclic = false;
  int64_t negative_weights = 0;
  std::vector<CpEventRow> events;
  std::vector<CpWhatIfRow> what_if;
  // In a job: the communication on this rank's path, by the rank that arrived last at the
  // collective (rank, ns), largest first.
  std::vector<std::pair<int64_t, int64_t>> comm_wait_by_rank;
};

struct CpRank {
  std::string input;
  int64_t rank = -1;  // distributedInfo's rank; -1 when the trace does not say
  bool whole_trace_fallback = false;
  bool event_syncs_read = false;
  std::vector<CpWindowRow> windows;
};

// One trace's rows: its events and streams named from `names`, the rank and the time origin from
// `metadata`.
CpRank MakeCpRank(std::string input, TraceNames names, const TraceMetadata& metadata,
                  const passes::CriticalPathResult& r);

std::string FormatCriticalPathText(const std::vector<CpRank>& ranks);
std::string FormatCriticalPathMarkdown(const std::vector<CpRank>& ranks);
std::string FormatCriticalPathCsv(const std::vector<CpRank>& ranks);
std::string FormatCriticalPathJson(const std::vector<CpRank>& ranks);

// The report in `format` (text, markdown, csv or json): the one choice of printer.
std::string FormatCriticalPathAs(OutputFormat format, const std::vector<CpRank>& ranks);

}  // namespace profana::report
