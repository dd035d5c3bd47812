// The op tree of `profana tree`: per thread, each CPU op with its total, self and device time,
// the device activity it launched, and its input shapes; as indented text or as nested JSON
// (schema "profana.tree/1", docs/json.md). Walked iteratively: traces can nest very deep. The
// output of a big trace runs to hundreds of MB, so it goes to a sink in chunks as it is made.
#pragma once

#include <string>
#include <vector>

#include "profana/base/output_sink.h"
#include "profana/base/status.h"
#include "profana/model/trace_names.h"
#include "profana/passes/event_times.h"
#include "profana/passes/function_events.h"
#include "profana/passes/thread_roots.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

struct TreeReportOptions {
  std::string input;        // the file name as given, for JSON
  int depth = -1;           // levels shown (1 = top-level ops only); -1: all
  double min_time_us = 0;   // ops whose CPU total is under this are hidden, with their subtree
  bool fold = true;         // text: a run of identical sibling lines is one line with " xN"
  bool full_names = false;  // text: kernel names whole, not shortened (passes::ShortKernelName)
};

// One line per op, indented two spaces a level (64 levels at most; deeper lines say their depth),
// then one "-> kernel" line per launched activity. Unless `fold` is off, consecutive siblings
// whose subtrees are identical (the same names, shapes, kernels and streams, child by child;
// times may differ) are one line with " xN" and the times summed over the N; JSON is unfolded.
// Returns the first failed write of `sink`, if any.
Status WriteTreeText(TraceNames names, const passes::FunctionEventList& events,
                     const passes::EventTimes& times,
                     const std::vector<passes::ThreadRoots>& threads,
                     const TreeReportOptions& options, OutputSink* sink);
Status WriteTreeJson(TraceNames names, const passes::FunctionEventList& events,
                     const passes::EventTimes& times,
                     const std::vector<passes::ThreadRoots>& threads,
                     const TreeReportOptions& options, OutputSink* sink);
// The tree as `format` asks: json, or text (the command offers no other).
Status WriteTreeAs(OutputFormat format, TraceNames names, const passes::FunctionEventList& events,
                   const passes::EventTimes& times, const std::vector<passes::ThreadRoots>& threads,
                   const TreeReportOptions& options, OutputSink* sink);

}  // namespace profana::report
