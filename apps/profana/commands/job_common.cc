#include "profana/commands/job_common.h"

#include <algorithm>
#include <atomic>
#include <map>

#include "fmt/format.h"
#include "profana/commands/advise_load.h"
#include "profana/commands/option_checks.h"
#include "profana/heap.h"
#include "profana/job/job_budget.h"
#include "profana/job/job_inputs.h"
#include "profana/job/process_split.h"
#include "profana/job/summary_file.h"
#include "profana/passes/event_sums.h"

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

Result<job::JobSummary> LoadJob(const JobArgs& a, const CommonOptions& options, Context& ctx,
                                const RankReducer& reduce, const SummaryUse& use_summary,
                                bool function_events) {
  job::RankSelection selection;
  if (!a.ranks.empty()) {
    PROFANA_ASSIGN_OR_RETURN(selection, job::RankSelection::Parse(a.ranks));
  }
  PROFANA_ASSIGN_OR_RETURN(std::vector<job::JobInput> inputs, job::ExpandInputs(a.inputs));
  for (const job::JobInput& in : inputs) ctx.inputs.push_back(in.path);
  // Each input writes its warnings and --verbose lines to its own text, passed on in input order.
  std::vector<std::string> logs(inputs.size());
  // Traces that record no kernel-op links: said once for the job, not once per rank.
  std::atomic<uint64_t> unlinked_traces{0}, enclosed_launches{0};
  Stopwatch clock;
  auto summarize = [&](const job::JobInput& in) -> Result<std::vector<job::RankSummary>> {
    std::vector<job::RankSummary> out;
    if (job::IsSummaryFile(in.path)) {
      if (!use_summary)
        return Status(ErrorCode::kInvalidArgument,
                      fmt::format("{} is a summary file (profana summarize): this command reads "
                                  "traces only",
                                  in.path));
      PROFANA_ASSIGN_OR_RETURN(job::RankSummary s, job::ReadSummaryFile(in.path));
      PROFANA_RETURN_IF_ERROR(use_summary(&s, in.path));
      out.push_back(std::move(s));
      return out;
    }
    Context local{nullptr, Log(&logs[in.order]), nullptr, {}};
    local.log.set_verbose(ctx.log.verbose());
    local.log.set_quiet(ctx.log.quiet());
    std::optional<FunctionEventIndex> index;
    PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(in.path, options, local, &index));
    auto reduce_one = [&](const Trace& t,
                          const std::optional<FunctionEventIndex>& ix) -> Result<job::RankSummary> {
      passes::FunctionEventList events;
      if (function_events) {
        events = passes::BuildFunctionEvents(t, ix, options.link, false);
        PROFANA_RETURN_IF_ERROR(passes::CheckEventSumsFit(t, events, in.path));
      }
      if (!events.trace_has_links && events.launches_enclosed > 0 && TraceWritesExternalIds(t)) {
        unlinked_traces.fetch_add(1);
        enclosed_launches.fetch_add(events.launches_enclosed);
      }
      return reduce(t, events, in.path);
    };
    // An export of several processes (a node of a torchrun job) is one rank per process.
    PROFANA_ASSIGN_OR_RETURN(std::vector<job::ProcessPart> parts, job::SplitByProcess(trace));
    if (parts.empty()) {
      PROFANA_ASSIGN_OR_RETURN(job::RankSummary s, reduce_one(trace, index));
      out.push_back(std::move(s));
      return out;
    }
    local.log.Debug("{}: {} processes launch device work: one rank each", in.path, parts.size());
    for (job::ProcessPart& part : parts) {
      PROFANA_ASSIGN_OR_RETURN(job::RankSummary s, reduce_one(part.trace, std::nullopt));
      out.push_back(std::move(s));
    }
    return out;
  };
  // main() keeps freed memory in the heap for the next buffer (fast for one trace). Over many
  // traces that memory fragments: the next trace's buffers do not fit the holes of the last one
  // exactly, and each rank's small summary, placed in pages a trace has touched, keeps them
  // resident. So the freed pages go back after each input (the workers share one heap, as every
  // thread does: main()): the peak stays near `workers` traces instead of growing with the ranks
  // (scripts/bench --job).
  auto summarize_and_trim = [&](const job::JobInput& in) {
    Result<std::vector<job::RankSummary>> r = summarize(in);
    ReleaseFreedHeap();
    return r;
  };
  Result<job::JobSummary> job =
      job::SummarizeJob(inputs, selection, static_cast<size_t>(a.jobs), summarize_and_trim);
  for (const std::string& log : logs) ctx.log.Append(log);
  if (options.link == passes::LinkRule::kAuto && unlinked_traces > 0)
    ctx.log.Warn(
        "{} of {} traces record no kernel-op links (External id == correlation): {} launches were "
        "credited to the cpu_op enclosing them (--link auto)",
        unlinked_traces.load(), inputs.size(), enclosed_launches.load());
  if (job.ok())
    ctx.log.Debug("{} input{} read and summarised in {:.1f} ms (peak RSS {:.0f} MB)", inputs.size(),
                  inputs.size() == 1 ? "" : "s", clock.Lap(), PeakRssMb());
  return job;
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

Result<job::JobSummary> LoadTableJob(const JobArgs& args, const CommonOptions& common, Context& ctx,
                                     const passes::KeyAverageOptions& keys, bool steps) {
  CommonOptions options = common;
  options.unread = TableUnread(keys);
  job::SummaryOptions so;
  so.table = true;
  so.key_averages = keys;
  so.steps = steps;
  return LoadJob(
      args, options, ctx,
      [&](const Trace& t, const passes::FunctionEventList& e, const std::string& p) {
        return job::SummarizeRank(t, e, p, so);
      },
      [&](job::RankSummary* s, const std::string& path) {
        return job::UseSummaryForTable(s, path, keys);
      });
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

Result<std::vector<RankDiff>> DiffInputsByRank(const std::string& base_path,
                                               const std::string& next_path,
                                               const std::string& ranks, const CommonOptions& o,
                                               Context& ctx, const passes::DiffOptions& options) {
  PROFANA_ASSIGN_OR_RETURN(job::JobSummary base,
                           LoadDiffSide(base_path, ranks, o, ctx, options.keys));
  PROFANA_ASSIGN_OR_RETURN(job::JobSummary next,
                           LoadDiffSide(next_path, ranks, o, ctx, options.keys));
  std::map<int64_t, std::pair<const job::RankSummary*, const job::RankSummary*>> by_rank;
  for (const job::RankSummary& s : base.ranks) by_rank[s.rank()].first = &s;
  for (const job::RankSummary& s : next.ranks) by_rank[s.rank()].second = &s;
  const job::RankSummary empty;
  std::vector<RankDiff> out;
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
  job::SummaryOptions so;
  so.table = so.steps = so.kernels = true;
  JobArgs args;
  args.inputs = {input};
  args.ranks = ranks;
  return LoadJob(
      args, o, ctx,
      [&](const Trace& t, const passes::FunctionEventList& e, const std::string& p) {
        return job::SummarizeRank(t, e, p, so);
      },
      [&](job::RankSummary* s, const std::string& path) {
        return job::UseSummaryForTable(s, path, so.key_averages);
      });
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
