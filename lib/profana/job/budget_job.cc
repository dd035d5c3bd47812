#include "profana/job/budget_job.h"

#include <algorithm>
#include <optional>

#include "fmt/format.h"
#include "profana/job/advice/advise_inputs.h"
#include "profana/job/diff_job.h"
#include "profana/job/job_budget.h"
#include "profana/job/trace_events.h"

namespace profana::job {

Result<BudgetRun> MeasureBudget(const std::string& input, const std::string& budget_file,
                                const passes::Budget& whole, const JobRequest& request,
                                std::vector<LoadNote>* notes) {
  return MeasureBudget(input, SniffInputs({input}), budget_file, whole, request, notes);
}

Result<BudgetRun> MeasureBudget(const std::string& input, SniffedInputs sniffed,
                                const std::string& budget_file, const passes::Budget& whole,
                                const JobRequest& request, std::vector<LoadNote>* notes) {
  // advise.* rules are measured on the findings of `profana advise`, the others as before.
  passes::Budget budget, advice;
  for (const passes::BudgetRule& rule : whole.rules)
    (passes::IsAdviceMetric(rule.metric) ? advice : budget).rules.push_back(rule);
  bool job_metric = std::any_of(budget.rules.begin(), budget.rules.end(),
                                [](const auto& r) { return passes::IsJobMetric(r.metric); });
  BudgetRun out;
  // FILE expanded once, from the file its sniff opened: the job's rules and the advice read the
  // same files.
  std::optional<std::vector<JobInput>> expanded;
  auto expand = [&]() -> Status {
    if (expanded) return Status::Ok();
    PROFANA_ASSIGN_OR_RETURN(expanded, ExpandInputs({input}, sniffed.opened()));
    return Status::Ok();
  };
  Result<std::vector<passes::RuleResult>> r = std::vector<passes::RuleResult>();
  if (budget.rules.empty()) {
    // only advice
  } else if (request.ranks.all() && !job_metric && sniffed.single) {
    out.paths.push_back(input);
    PROFANA_ASSIGN_OR_RETURN(LoadedInput loaded, LoadInput(*sniffed.single, request.load, notes));
    PROFANA_ASSIGN_OR_RETURN(
        passes::FunctionEventList events,
        BuildTraceEvents(loaded.trace, loaded.function_index, input, request.link, notes));
    r = passes::EvaluateBudget(loaded.trace, events, budget);
  } else {
    // Every rank's key averages, steps and kernel statistics, from traces or summary files.
    JobRequest job = TableJobRequest(request, {}, /*steps=*/true);
    job.inputs = {input};
    job.summary.kernels = true;
    PROFANA_RETURN_IF_ERROR(expand());
    PROFANA_ASSIGN_OR_RETURN(JobRun run, RunJob(job, *expanded, notes));
    out.paths.insert(out.paths.end(), run.paths.begin(), run.paths.end());
    r = EvaluateJobBudget(run.job, budget);
  }
  if (r.ok() && !advice.rules.empty()) {
    PROFANA_RETURN_IF_ERROR(expand());
    PROFANA_ASSIGN_OR_RETURN(
        AdviceRun run, AdviseInputs({input}, *expanded, request.load, request.link, {}, notes));
    out.paths.insert(out.paths.end(), run.paths.begin(), run.paths.end());
    Result<std::vector<passes::RuleResult>> a =
        EvaluateAdviceRules(run.report.findings, advice.rules);
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
  out.results = std::move(*r);
  return out;
}

}  // namespace profana::job
