#include "profana/job/diff_job.h"

#include <map>
#include <utility>

#include "profana/job/trace_events.h"

namespace profana::job {
namespace {

// One side as a job: its ranks (those the request selects), each with its key averages and
// step rows.
// `opened`: the side's file, when a sniff opened it.
Result<JobRun> ReadDiffSide(const std::string& input, std::shared_ptr<InputFile> opened,
                            JobRequest request, const passes::KeyAverageOptions& keys,
                            std::vector<LoadNote>* notes) {
  request.inputs = {input};
  request.opened = std::move(opened);
  return RunTableJob(std::move(request), keys, /*steps=*/true, notes);
}

passes::DiffSide SideOf(const RankSummary& s) {
  return {&s.strings, &s.rows, JobStepStats(s), static_cast<int64_t>(s.sources.size())};
}

void AddPaths(const JobRun& run, std::vector<std::string>* paths) {
  paths->insert(paths->end(), run.paths.begin(), run.paths.end());
}

}  // namespace

JobRequest TableJobRequest(JobRequest r, const passes::KeyAverageOptions& keys, bool steps) {
  r.summary.table = true;
  r.summary.key_averages = keys;
  r.summary.steps = steps;
  r.summary_input = SummaryInput::kForTable;
  return r;
}

Result<JobRun> RunTableJob(JobRequest request, const passes::KeyAverageOptions& keys, bool steps,
                           std::vector<LoadNote>* notes) {
  UnreadColumns unread = TableUnread(keys);
  unread.flows = request.load.load.unread.flows;
  request.load.load.unread = unread;
  return RunJob(TableJobRequest(std::move(request), keys, steps), notes);
}

DiffSide OpenDiffSide(const std::string& path) {
  SniffedInputs sniffed = SniffInputs({path});
  return {path, std::move(sniffed.single), std::move(sniffed.summary)};
}

Result<DiffRun> DiffInputs(const DiffSide& base_side, const DiffSide& next_side,
                           const JobRequest& request, const passes::DiffOptions& options,
                           std::vector<LoadNote>* notes) {
  DiffRun out;
  const std::string& base_path = base_side.path;
  const std::string& next_path = next_side.path;
  if (request.ranks.all() && base_side.single && next_side.single) {
    out.paths = {base_path, next_path};
    PROFANA_ASSIGN_OR_RETURN(LoadedInput base, LoadInput(*base_side.single, request.load, notes));
    PROFANA_ASSIGN_OR_RETURN(LoadedInput next, LoadInput(*next_side.single, request.load, notes));
    PROFANA_ASSIGN_OR_RETURN(
        passes::FunctionEventList base_events,
        BuildTraceEvents(base.trace, base.function_index, base_path, request.link, notes));
    PROFANA_ASSIGN_OR_RETURN(
        passes::FunctionEventList next_events,
        BuildTraceEvents(next.trace, next.function_index, next_path, request.link, notes));
    out.diff = passes::DiffTraces(base.trace, base_events, next.trace, next_events, options);
    return out;
  }
  PROFANA_ASSIGN_OR_RETURN(
      JobRun base_run, ReadDiffSide(base_path, base_side.opened(), request, options.keys, notes));
  AddPaths(base_run, &out.paths);
  PROFANA_ASSIGN_OR_RETURN(RankSummary base, base_run.job.Combine());
  PROFANA_ASSIGN_OR_RETURN(
      JobRun next_run, ReadDiffSide(next_path, next_side.opened(), request, options.keys, notes));
  AddPaths(next_run, &out.paths);
  PROFANA_ASSIGN_OR_RETURN(RankSummary next, next_run.job.Combine());
  out.diff = passes::DiffRows(SideOf(base), SideOf(next), options);
  return out;
}

Result<RankDiffsRun> DiffInputsByRank(const DiffSide& base_side, const DiffSide& next_side,
                                      const JobRequest& request, const passes::DiffOptions& options,
                                      std::vector<LoadNote>* notes) {
  RankDiffsRun out;
  PROFANA_ASSIGN_OR_RETURN(
      JobRun base, ReadDiffSide(base_side.path, base_side.opened(), request, options.keys, notes));
  AddPaths(base, &out.paths);
  PROFANA_ASSIGN_OR_RETURN(
      JobRun next, ReadDiffSide(next_side.path, next_side.opened(), request, options.keys, notes));
  AddPaths(next, &out.paths);
  std::map<int64_t, std::pair<const RankSummary*, const RankSummary*>> by_rank;
  for (const RankSummary& s : base.job.ranks) by_rank[s.rank()].first = &s;
  for (const RankSummary& s : next.job.ranks) by_rank[s.rank()].second = &s;
  const RankSummary empty;
  for (const auto& [rank, pair] : by_rank) {
    const RankSummary& b = pair.first ? *pair.first : empty;
    const RankSummary& n = pair.second ? *pair.second : empty;
    out.diffs.push_back({rank, passes::DiffRows(SideOf(b), SideOf(n), options)});
  }
  return out;
}

}  // namespace profana::job
