#include "profana/job/run_job.h"

#include <optional>

#include "fmt/format.h"
#include "profana/base/input_name.h"
#include "profana/base/memory_release.h"
#include "profana/base/stopwatch.h"
#include "profana/job/collective_analysis.h"
#include "profana/job/input_kind.h"
#include "profana/job/job_runner.h"
#include "profana/job/process_split.h"
#include "profana/job/source_hash.h"
#include "profana/job/summary_file.h"
#include "profana/job/trace_events.h"
#include "profana/passes/event_sums.h"
#include "profana/passes/stack_text.h"
#include "profana/passes/step_marker.h"

namespace profana::job {
namespace {

// What one input leaves besides its summaries; written by the worker that reads it only.
struct InputOutcome {
  std::vector<LoadNote> notes;
  std::string no_steps;
  bool unlinked = false;  // a trace that writes External ids but links no kernel to an op
  int64_t enclosed_launches = 0;
  std::optional<passes::StackSource> stack_source;
};

Result<RankSummary> TakeSummaryFile(const JobRequest& r, const InputFile& file) {
  const std::string& path = file.path();
  if (r.summary_input == SummaryInput::kRefused)
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{} is a summary file (profana summarize): this command reads "
                              "traces only",
                              path));
  PROFANA_ASSIGN_OR_RETURN(RankSummary s, ReadSummaryFile(file));
  if (r.summary_input == SummaryInput::kForTable)
    PROFANA_RETURN_IF_ERROR(UseSummaryForTable(&s, path, r.summary.key_averages));
  if (r.summary_input == SummaryInput::kCollectives)
    PROFANA_RETURN_IF_ERROR(RequireCollectiveLedger(s, path));
  return s;
}

// One rank's trace (the whole input, or one process of it) reduced to its summary. `source`: the
// input's file, still open from its load.
Result<RankSummary> SummarizeRankTrace(const JobRequest& r, const Trace& t,
                                       const std::optional<FunctionEventIndex>& index,
                                       const InputFile& source, const std::string& path,
                                       InputOutcome* out) {
  passes::FunctionEventList events;
  if (r.function_events) {
    events = passes::BuildFunctionEvents(t, index, r.link, false);
    PROFANA_RETURN_IF_ERROR(passes::CheckEventSumsFit(t, events, path));
  }
  if (CreditedByEnclosureOnly(t, events)) {
    out->unlinked = true;
    out->enclosed_launches += events.launches_enclosed;
  }
  if (r.summary.steps && out->no_steps.empty() && !passes::HasStepMarkers(t))
    out->no_steps = InputName(path) + ": " + passes::NoStepsHint(t);
  RankSummary s = SummarizeRank(t, events, path, r.summary);
  if (r.source_hash) {
    PROFANA_ASSIGN_OR_RETURN(s.sources.front().hash, SourceHash(source));
  }
  if (r.stacks) {
    passes::StackSamples samples =
        passes::ComputeStackSamples(t, events, r.stacks->source, r.stacks->metric);
    s.stacks = passes::MergeStacks(t.strings, samples);
    out->stack_source = samples.source;
  }
  return s;
}

Result<std::vector<RankSummary>> SummarizeInput(const JobRequest& r, const JobInput& in,
                                                size_t cores, InputOutcome* out) {
  std::vector<RankSummary> summaries;
  // Opened once: the sniff and the load read the same descriptor.
  PROFANA_ASSIGN_OR_RETURN(std::shared_ptr<InputFile> file, OpenJobInput(in));
  if (InputKindOf(*file) == InputKind::kSummary) {
    PROFANA_ASSIGN_OR_RETURN(RankSummary s, TakeSummaryFile(r, *file));
    summaries.push_back(std::move(s));
    return summaries;
  }
  LoadRequest load = r.load;
  load.load.parse_threads = static_cast<int>(cores);
  PROFANA_ASSIGN_OR_RETURN(LoadedInput loaded, LoadInput(std::move(file), load, &out->notes));
  // An export of several processes (a node of a torchrun job) is one rank per process.
  PROFANA_ASSIGN_OR_RETURN(std::vector<ProcessPart> parts, SplitByProcess(loaded.trace));
  if (parts.empty()) {
    PROFANA_ASSIGN_OR_RETURN(
        RankSummary s,
        SummarizeRankTrace(r, loaded.trace, loaded.function_index, *loaded.file, in.path, out));
    summaries.push_back(std::move(s));
    return summaries;
  }
  out->notes.push_back(
      {LoadNote::Level::kDebug,
       fmt::format("{}: {} processes launch device work: one rank each", in.path, parts.size())});
  for (ProcessPart& part : parts) {
    PROFANA_ASSIGN_OR_RETURN(
        RankSummary s, SummarizeRankTrace(r, part.trace, std::nullopt, *loaded.file, in.path, out));
    summaries.push_back(std::move(s));
  }
  return summaries;
}

}  // namespace

Result<JobRun> RunJob(const JobRequest& request, std::vector<LoadNote>* notes) {
  PROFANA_ASSIGN_OR_RETURN(std::vector<JobInput> inputs,
                           ExpandInputs(request.inputs, request.opened));
  return RunJob(request, inputs, notes);
}

Result<JobRun> RunJob(const JobRequest& request, const std::vector<JobInput>& inputs,
                      std::vector<LoadNote>* notes) {
  JobRequest r = request;
  r.load.progress = {};  // the workers read several inputs at once: no progress line
  JobRun run;
  if (r.stacks) run.stack_source = r.stacks->source;
  for (const JobInput& in : inputs) run.paths.push_back(in.path);
  std::vector<InputOutcome> outcomes(inputs.size());
  Stopwatch clock;
  // main() keeps freed memory in the heap for the next buffer (fast for one trace). Over many
  // traces that memory fragments: the next trace's buffers do not fit the holes of the last one
  // exactly, and each rank's small summary, placed in pages a trace has touched, keeps them
  // resident. So the freed pages go back after each input (the workers share one heap): the peak
  // stays near `workers` traces instead of growing with the ranks (scripts/bench --job).
  Result<JobSummary> job =
      SummarizeJob(inputs, r.ranks, r.workers, [&](const JobInput& in, size_t cores) {
        Result<std::vector<RankSummary>> s = SummarizeInput(r, in, cores, &outcomes[in.order]);
        ReleaseFreedMemory();
        return s;
      });
  size_t unlinked = 0;
  int64_t enclosed = 0;
  for (InputOutcome& o : outcomes) {
    for (LoadNote& n : o.notes) notes->push_back(std::move(n));
    unlinked += o.unlinked;
    enclosed += o.enclosed_launches;
    if (run.no_steps.empty()) run.no_steps = o.no_steps;
    if (o.stack_source && run.stack_source != passes::StackSource::kPython)
      run.stack_source = *o.stack_source;
  }
  if (r.link == passes::LinkRule::kAuto && unlinked > 0)
    notes->push_back(
        {LoadNote::Level::kWarning,
         fmt::format("{} of {} traces record no kernel-op links (External id == correlation): {} "
                     "launches were credited to the cpu_op enclosing them (--link auto)",
                     unlinked, inputs.size(), enclosed)});
  PROFANA_ASSIGN_OR_RETURN(run.job, std::move(job));
  notes->push_back(
      {LoadNote::Level::kDebug,
       fmt::format("{} input{} read and summarised in {:.1f} ms (peak RSS {:.0f} MB)",
                   inputs.size(), inputs.size() == 1 ? "" : "s", clock.Lap(), PeakRssMb())});
  return run;
}

UnreadColumns TableUnread(const passes::KeyAverageOptions& keys, bool raw) {
  UnreadColumns unread;
  unread.input_shapes = !raw && !keys.group_by_input_shape;
  unread.stacks = !raw && keys.group_by_stack_n <= 0;
  unread.collectives = true;
  unread.memory_details = !raw;
  unread.device_args = true;
  return unread;
}

UnreadColumns TimelineUnread(bool reads_stacks) {
  UnreadColumns unread;
  unread.input_shapes = true;
  unread.stacks = !reads_stacks;
  unread.collectives = true;
  unread.memory_details = true;
  unread.device_args = true;
  return unread;
}

UnreadColumns MemoryUnread() {
  UnreadColumns unread;
  unread.collectives = true;
  unread.device_args = true;
  return unread;
}

}  // namespace profana::job
