#include "profana/commands/job_common.h"

#include <algorithm>
#include <map>

#include "fmt/format.h"
#include "profana/commands/advise_load.h"
#include "profana/commands/option_checks.h"
#include "profana/job/job_budget.h"
#include "profana/job/job_inputs.h"

namespace profana::app {

void AddJobInputs(CLI::App* command, JobArgs* a, const std::string& what, bool by_rank) {
  command
      ->add_option("FILE", a->inputs,
                   what +
                       ": trace files, directories (the traces inside, sorted) or globs; one "
                       "rank each; - reads standard input")
      ->required();
  command->add_option("--ranks", a->ranks,
                      "Only these ranks of the inputs: 0-3,7 (a rank is distributedInfo.rank, else "
                      "a number in the file name, else the position)");
  command
      ->add_option("--jobs", a->jobs,
                   "Traces read at once (each held until summarised; default: the cores this "
                   "process may use)")
      ->check(WholeNumber<int>("--jobs", 0));
  if (by_rank)
    command->add_flag("--by-rank", a->by_rank, "One block per rank instead of the ranks summed");
}

bool IsSingleTraceRun(const JobArgs& a) {
  return a.ranks.empty() && !a.by_rank && job::IsSingleTrace(a.inputs);
}

Result<job::JobRequest> JobRequestFor(const JobArgs& a, const CommonOptions& options) {
  job::JobRequest r;
  r.inputs = a.inputs;
  if (!a.ranks.empty()) {
    PROFANA_ASSIGN_OR_RETURN(r.ranks, job::RankSelection::Parse(a.ranks));
  }
  r.workers = static_cast<size_t>(a.jobs);
  r.load = LoadRequestFor(options);
  r.link = options.link;
  return r;
}

Result<job::JobRun> RunJobForCommand(const job::JobRequest& request, Context& ctx) {
  std::vector<job::LoadNote> notes;
  Result<job::JobRun> run = job::RunJob(request, &notes);
  PrintNotes(notes, ctx);
  if (run.ok()) ctx.inputs.insert(ctx.inputs.end(), run->paths.begin(), run->paths.end());
  return run;
}

Result<job::JobSummary> LoadTableJob(const JobArgs& args, const CommonOptions& common, Context& ctx,
                                     const passes::KeyAverageOptions& keys, bool steps) {
  CommonOptions options = common;
  options.unread = job::TableUnread(keys);
  PROFANA_ASSIGN_OR_RETURN(job::JobRequest request, JobRequestFor(args, options));
  request.summary.table = true;
  request.summary.key_averages = keys;
  request.summary.steps = steps;
  request.summary_input = job::SummaryInput::kForTable;
  PROFANA_ASSIGN_OR_RETURN(job::JobRun run, RunJobForCommand(request, ctx));
  return std::move(run.job);
}

namespace {

// One job as a diff side: its ranks (those `ranks` selects), each with its key averages and step
// rows.
Result<job::JobSummary> LoadDiffSide(const std::string& input, const std::string& ranks,
                                     const CommonOptions& options, Context& ctx,
                                     const passes::KeyAverageOptions& keys) {
  JobArgs args;
  args.inputs = {input};
  args.ranks = ranks;
  return LoadTableJob(args, options, ctx, keys, /*steps=*/true);
}

// The same, its ranks combined.
Result<job::RankSummary> LoadCombinedJob(const std::string& input, const std::string& ranks,
                                         const CommonOptions& options, Context& ctx,
                                         const passes::KeyAverageOptions& keys) {
  PROFANA_ASSIGN_OR_RETURN(job::JobSummary job, LoadDiffSide(input, ranks, options, ctx, keys));
  return job.Combine();
}

int64_t Ranks(const job::RankSummary& s) { return static_cast<int64_t>(s.sources.size()); }

}  // namespace

Result<passes::TraceDiff> DiffInputs(const std::string& base_path, const std::string& next_path,
                                     const std::string& ranks, const CommonOptions& o, Context& ctx,
                                     const passes::DiffOptions& options) {
  if (IsSingleTraceRun({{base_path}, ranks}) && IsSingleTraceRun({{next_path}, ranks})) {
    std::optional<FunctionEventIndex> base_index, next_index;
    PROFANA_ASSIGN_OR_RETURN(Trace base, LoadForCommand(base_path, o, ctx, &base_index));
    PROFANA_ASSIGN_OR_RETURN(Trace next, LoadForCommand(next_path, o, ctx, &next_index));
    PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList base_events,
                             BuildEventsForCommand(base, base_index, base_path, o, ctx));
    PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList next_events,
                             BuildEventsForCommand(next, next_index, next_path, o, ctx));
    return passes::DiffTraces(base, base_events, next, next_events, options);
  }
  PROFANA_ASSIGN_OR_RETURN(job::RankSummary base,
                           LoadCombinedJob(base_path, ranks, o, ctx, options.keys));
  PROFANA_ASSIGN_OR_RETURN(job::RankSummary next,
                           LoadCombinedJob(next_path, ranks, o, ctx, options.keys));
  return passes::DiffRows({&base.strings, &base.rows, job::JobStepStats(base), Ranks(base)},
                          {&next.strings, &next.rows, job::JobStepStats(next), Ranks(next)},
                          options);
}

Result<std::vector<report::RankDiff>> DiffInputsByRank(const std::string& base_path,
                                                       const std::string& next_path,
                                                       const std::string& ranks,
                                                       const CommonOptions& o, Context& ctx,
                                                       const passes::DiffOptions& options) {
  PROFANA_ASSIGN_OR_RETURN(job::JobSummary base,
                           LoadDiffSide(base_path, ranks, o, ctx, options.keys));
  PROFANA_ASSIGN_OR_RETURN(job::JobSummary next,
                           LoadDiffSide(next_path, ranks, o, ctx, options.keys));
  std::map<int64_t, std::pair<const job::RankSummary*, const job::RankSummary*>> by_rank;
  for (const job::RankSummary& s : base.ranks) by_rank[s.rank()].first = &s;
  for (const job::RankSummary& s : next.ranks) by_rank[s.rank()].second = &s;
  const job::RankSummary empty;
  std::vector<report::RankDiff> out;
  for (const auto& [rank, pair] : by_rank) {
    const job::RankSummary& b = pair.first ? *pair.first : empty;
    const job::RankSummary& n = pair.second ? *pair.second : empty;
    out.push_back(
        {rank, passes::DiffRows({&b.strings, &b.rows, job::JobStepStats(b), Ranks(b)},
                                {&n.strings, &n.rows, job::JobStepStats(n), Ranks(n)}, options)});
  }
  return out;
}

namespace {

// Every rank's key averages, steps and kernel statistics, from traces or summary files.
Result<job::JobSummary> LoadBudgetJob(const std::string& input, const std::string& ranks,
                                      const CommonOptions& o, Context& ctx) {
  PROFANA_ASSIGN_OR_RETURN(job::JobRequest request, JobRequestFor({{input}, ranks}, o));
  request.summary.table = request.summary.steps = request.summary.kernels = true;
  request.summary_input = job::SummaryInput::kForTable;
  PROFANA_ASSIGN_OR_RETURN(job::JobRun run, RunJobForCommand(request, ctx));
  return std::move(run.job);
}

}  // namespace

Result<std::vector<passes::RuleResult>> MeasureBudget(const std::string& input,
                                                      const std::string& ranks,
                                                      const std::string& budget_file,
                                                      const passes::Budget& whole,
                                                      const CommonOptions& o, Context& ctx) {
  // advise.* rules are measured on the findings of `profana advise`, the others as before.
  passes::Budget budget, advice;
  for (const passes::BudgetRule& rule : whole.rules)
    (passes::IsAdviceMetric(rule.metric) ? advice : budget).rules.push_back(rule);
  bool job_metric = std::any_of(budget.rules.begin(), budget.rules.end(),
                                [](const auto& r) { return passes::IsJobMetric(r.metric); });
  Result<std::vector<passes::RuleResult>> r = std::vector<passes::RuleResult>();
  if (budget.rules.empty()) {
    // only advice
  } else if (IsSingleTraceRun({{input}, ranks}) && !job_metric) {
    std::optional<FunctionEventIndex> index;
    PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(input, o, ctx, &index));
    PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                             BuildEventsForCommand(trace, index, input, o, ctx));
    r = passes::EvaluateBudget(trace, events, budget);
  } else {
    PROFANA_ASSIGN_OR_RETURN(job::JobSummary job, LoadBudgetJob(input, ranks, o, ctx));
    r = job::EvaluateJobBudget(job, budget);
  }
  if (r.ok() && !advice.rules.empty()) {
    PROFANA_ASSIGN_OR_RETURN(report::AdviceReport report, LoadAdvice({input}, o, ctx, {}));
    Result<std::vector<passes::RuleResult>> a =
        job::EvaluateAdviceRules(report.findings, advice.rules);
    if (a.ok()) {
      r->insert(r->end(), a->begin(), a->end());
      std::stable_sort(r->begin(), r->end(),
                       [](const auto& x, const auto& y) { return x.rule.index < y.rule.index; });
    } else {
      r = a.status();
    }
  }
  // A rule that cannot be measured: the message names the budget, then the rule.
  if (!r.ok())
    return Status(r.status().code(), fmt::format("{}: {}", budget_file, r.status().message()));
  return r;
}

}  // namespace profana::app
