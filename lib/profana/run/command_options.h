// The options every command shares, as typed values: the command line parses them once
// (apps/profana/commands/commands.h) and the runs of lib/profana/run/ read them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profana/job/job_inputs.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"
#include "profana/passes/trace_filter.h"
#include "profana/reporters/output_format.h"

namespace profana::run {

using report::OutputFormat;

struct CommonOptions {
  std::string output;  // -o FILE; empty = stdout
  OutputFormat format = OutputFormat::kText;
  bool strict = false;
  bool verbose = false;
  bool quiet = false;
  std::optional<uint64_t> max_memory;  // --max-memory; unset = the default (base/memory_limit.h)
  // Filters, applied by LoadForCommand before any analysis (passes/trace_filter.h).
  std::string step_marker;     // --step-marker REGEX: these ranges are the steps (step_marker.h)
  passes::TraceFilter filter;  // --steps, --window, --thread, --device, ... parsed
  passes::LinkRule link = passes::LinkRule::kAuto;  // --link, for commands that credit kernels
  // Written byte for byte (convert's files). Otherwise text and markdown results show control
  // characters visibly (base/terminal_text.h), whatever reporter wrote them.
  bool data_output = false;
  // Whether the command reads the trace's flow events (info shows them, convert writes them).
  // No analysis does: for the other commands LoadForCommand keeps only their count
  // (UnreadColumns::flows).
  bool keeps_flows = false;
  // Event columns the command never reads: the load keeps each as one value (UnreadColumns).
  UnreadColumns unread;
};

// The inputs of a command that reads a whole job (FILE, DIR or GLOB, several).
struct JobArgs {
  std::vector<std::string> inputs;
  job::RankSelection ranks;  // --ranks 0-3,7, parsed as read; all() when not given
  bool by_rank = false;      // --by-rank: one block per rank instead of the combination
  int jobs = 0;              // --jobs: traces read at once; 0 = the cores this process may use
};

}  // namespace profana::run
