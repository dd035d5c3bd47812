#include "profana/run/stacks_load.h"

#include <mutex>

#include "profana/job/rank_summary.h"
#include "profana/passes/function_events.h"

namespace profana::run {

StacksRequest ShapeRequest(StacksRequest r, const std::string& unit, bool merge, bool json,
                           bool svg) {
  r.unit = unit == "ns" ? report::StackUnit::kNanos : report::StackUnit::kMicros;
  r.per_event = !merge && !json;
  r.merged = !r.per_event || svg;
  r.display = svg;
  return r;
}

Result<TraceStackSamples> LoadStackSamples(const job::JobInput& input, const CommonOptions& options,
                                           Session& session, const StacksRequest& r) {
  const std::string& file = input.path;
  std::optional<FunctionEventIndex> index;
  TraceStackSamples out;
  PROFANA_ASSIGN_OR_RETURN(out.trace, LoadForCommand(input, options, session, &index));
  Stopwatch clock;
  PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                           BuildEventsForCommand(out.trace, index, file, options, session));
  session.Debug("function events: {} in {:.1f} ms", events.size(), clock.Lap());
  out.samples = passes::ComputeStackSamples(out.trace, events, r.source, r.metric);
  session.Debug("stack samples: {} ({} distinct stacks) in {:.1f} ms", out.samples.stack.size(),
                out.samples.trie.size() - 1, clock.Lap());
  if (std::string note = report::StacksOriginNote(out.samples); !note.empty())
    session.Warn("{}: {}", InputName(file), note);
  if (std::string why = report::EmptyStacksReason(out.samples, r.metric); !why.empty())
    session.Warn("{}: {}", InputName(file), why);
  return out;
}

Result<report::StacksText> LoadStacks(const job::JobInput& input, const CommonOptions& options,
                                      Session& session, const StacksRequest& r) {
  PROFANA_ASSIGN_OR_RETURN(TraceStackSamples s, LoadStackSamples(input, options, session, r));
  Stopwatch clock;
  report::StacksText out = report::ShapeStacks(s.trace.strings, s.samples, r.merged, r.display);
  session.Debug("stacks merged: {} in {:.1f} ms", out.merged.size(), clock.Lap());
  return out;
}

Result<report::StacksText> LoadStacksJob(const JobArgs& args, std::shared_ptr<InputFile> opened,
                                         const CommonOptions& options, Session& session,
                                         const StacksRequest& r, std::vector<int64_t>* ranks) {
  job::JobRequest request = JobRequestFor(args, options, std::move(opened));
  request.stacks = job::JobRequest::Stacks{r.source, r.metric};
  PROFANA_ASSIGN_OR_RETURN(job::JobRun run, RunJobForCommand(request, session));
  const job::JobSummary& job = run.job;
  report::StacksText out;
  out.source = run.stack_source;
  *ranks = job.RankList();
  if (args.by_rank) {
    out.merged = report::StacksByRank(job.ranks);
  } else {
    PROFANA_ASSIGN_OR_RETURN(job::RankSummary all, job.Combine());
    out.merged = std::move(all.stacks);
  }
  return out;
}

}  // namespace profana::run
