// RunJob: the pipeline of every whole-job command, in one call. The inputs (FILE, DIR or GLOB)
// are expanded into files; each is read on a bounded pool of workers: a summary file is parsed
// (and taken as the request says), a trace loaded (job/load_input.h), split into one rank per
// launching process, and reduced to the summary the request asks for, then dropped before the
// worker takes the next file. What the user should be told comes back as notes, those of each
// input in input order, whatever order the workers finish in.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/job/job_inputs.h"
#include "profana/job/load_input.h"
#include "profana/job/rank_summary.h"
#include "profana/passes/function_events.h"
#include "profana/passes/stacks.h"

namespace profana::job {

// How a summary file (profana summarize) among the inputs is taken.
enum class SummaryInput {
  kRefused,      // an error: the command reads traces only
  kAsIs,         // merged in as it is (steps, kernels, summarize)
  kForTable,     // made what the trace would give for `table` (UseSummaryForTable)
  kCollectives,  // it must hold the collective ledger (RequireCollectiveLedger)
};

struct JobRequest {
  std::vector<std::string> inputs;  // FILE, DIR or GLOB arguments (job/job_inputs.h)
  RankSelection ranks;              // --ranks
  size_t workers = 0;               // traces read at once; 0 = the cores this process may use
  LoadRequest load;  // how each trace is loaded (filters, --strict, ...); never with progress
  passes::LinkRule link = passes::LinkRule::kAuto;
  // Without, the summary gets an empty function event list: for summaries that read the trace
  // only (steps, collectives), which then skip the op tree and the kernel attribution.
  bool function_events = true;
  SummaryOptions summary;  // what each rank's summary keeps
  SummaryInput summary_input = SummaryInput::kRefused;
  bool source_hash = false;  // each trace's SourceHash in its summary's source (summarize)
  // Each rank's stacks (ComputeStackSamples, merged: passes/stack_text.h) in its summary.
  struct Stacks {
    passes::StackSource source = passes::StackSource::kAuto;
    passes::StackMetric metric = passes::StackMetric::kSelfCpu;
  };
  std::optional<Stacks> stacks;
  // The file of a single argument the command's sniff opened (SniffedInputs::opened): read, not
  // opened again.
  std::shared_ptr<InputFile> opened;
};

struct JobRun {
  JobSummary job;
  std::vector<std::string> paths;  // the expanded inputs, in order
  // With summary.steps: why the first trace (in input order) without ProfilerStep markers has
  // none, and what to try ("FILE: ..."); empty when every trace has them.
  std::string no_steps;
  // With stacks: python when it was asked for or any rank's stacks came from Python frames, else
  // the last rank's source (in input order).
  passes::StackSource stack_source = passes::StackSource::kAuto;
};

// Errors: an input that does not expand or load (the first in input order), two inputs of one
// rank, a --ranks selection that keeps none. The notes are appended to *notes, those of the
// inputs read before a failure too.
Result<JobRun> RunJob(const JobRequest& request, std::vector<LoadNote>* notes);
// The same for request.inputs already expanded (ExpandInputs), each read from the file the
// expansion holds open: for a caller that reads the same inputs again (check --budget's advice).
Result<JobRun> RunJob(const JobRequest& request, const std::vector<JobInput>& inputs,
                      std::vector<LoadNote>* notes);

// What key averages by `keys` leave unread: input shapes unless grouped by them, stacks unless
// grouped by them (`raw` rows show both), collectives and device args always, and [memory]
// records' addresses, totals and device ids unless `raw`.
UnreadColumns TableUnread(const passes::KeyAverageOptions& keys, bool raw = false);
// What a command that reads the events' names, times, threads and links leaves unread: input
// shapes, collectives, device args, [memory] records' addresses, totals and device ids, and the
// stacks unless `reads_stacks` (idle and queue do not; optimizable's source locations and the
// stacks command's samples do).
UnreadColumns TimelineUnread(bool reads_stacks);
// What `memory` leaves unread: collectives and device args (its categories read the ops' names,
// input shapes and stacks, and every field of the [memory] records).
UnreadColumns MemoryUnread();

}  // namespace profana::job
