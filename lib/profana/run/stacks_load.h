// The load step of `profana stacks`: one trace's stack samples, or a whole job's merged stacks,
// shaped as the command prints them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "profana/passes/stacks.h"
#include "profana/reporters/stacks_reporter.h"
#include "profana/run/command_load.h"

namespace profana::run {

struct StacksRequest {
  passes::StackSource source = passes::StackSource::kAuto;
  passes::StackMetric metric = passes::StackMetric::kSelfCpu;
  report::StackUnit unit = report::StackUnit::kMicros;
  bool per_event = false;  // export_stacks' lines, one per event
  bool merged = false;     // the merge (for --merge, --diff, JSON and the SVG)
  bool display = false;    // the merge with real spaces in frame names (the SVG)
};

// The request with what the output needs: weights in `unit` ("us" or "ns"); one line per event
// (export_stacks) unless `merge` or `json`; the merge for everything else and for an `svg`, whose
// names keep real spaces.
StacksRequest ShapeRequest(StacksRequest request, const std::string& unit, bool merge, bool json,
                           bool svg);

// One trace and its stack samples (which name the trace's strings).
struct TraceStackSamples {
  Trace trace;
  passes::StackSamples samples;
};

// One trace (read from its file when a sniff opened it): loads it and computes its samples; warns
// in one line why a result is empty.
Result<TraceStackSamples> LoadStackSamples(const job::JobInput& input, const CommonOptions& options,
                                           Session& session, const StacksRequest& request);
// The same, merged as `request` asks (export_stacks' lines are written from the samples).
Result<report::StacksText> LoadStacks(const job::JobInput& input, const CommonOptions& options,
                                      Session& session, const StacksRequest& request);

// Several traces: each rank's merged stacks, summed, or each under a "rank N" root frame with
// --by-rank; `ranks` receives the job's ranks. Auto stacks are python where any rank recorded
// Python stacks. `opened`: the summary file SniffJobArgs opened.
Result<report::StacksText> LoadStacksJob(const JobArgs& args, std::shared_ptr<InputFile> opened,
                                         const CommonOptions& options, Session& session,
                                         const StacksRequest& request, std::vector<int64_t>* ranks);

}  // namespace profana::run
