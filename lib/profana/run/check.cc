#include "profana/run/check.h"

#include "fmt/format.h"
#include "profana/job/budget_job.h"
#include "profana/job/diff_job.h"
#include "profana/passes/budget.h"
#include "profana/passes/function_events.h"
#include "profana/passes/trace_validation.h"
#include "profana/reporters/check_reporter.h"
#include "profana/run/command_load.h"

namespace profana::run {

Status RunCheck(const CheckArgs& a, Session& session) {
  if (!a.budget.empty() && !a.baseline.empty())
    return Status(ErrorCode::kInvalidArgument, "--budget and --baseline: one check at a time");
  if (!a.ranks.all() && a.budget.empty() && a.baseline.empty())
    return Status(ErrorCode::kInvalidArgument, "--ranks: only with --budget or --baseline");
  passes::Budget budget;
  if (!a.budget.empty()) {
    session.Read(a.budget);
    PROFANA_ASSIGN_OR_RETURN(std::string text,
                             ReadTextFile(a.budget, a.common, passes::CouldStartBudget));
    PROFANA_ASSIGN_OR_RETURN(budget, passes::ParseBudget(text, a.budget));
  }
  bool json = a.common.format == OutputFormat::kJson;
  report::CheckReport report;
  if (!a.baseline.empty()) {  // traces or jobs (a directory, a glob, a summary file)
    job::JobRequest request = SidesRequestFor(a.ranks, a.common, session);
    std::vector<job::LoadNote> notes;
    PROFANA_ASSIGN_OR_RETURN(
        job::DiffRun run, WithNotes(job::DiffInputs(job::OpenDiffSide(a.baseline),
                                                    job::OpenDiffSide(a.file), request, {}, &notes),
                                    notes, session));
    report = report::ReportRules(json, a.file, report::BaselineMode(a.baseline, a.max_regression),
                                 passes::BaselineRules(run.diff, a.max_regression));
  } else if (!a.budget.empty()) {  // a trace, or a job: a directory, a glob or a summary file
    job::JobRequest request = SidesRequestFor(a.ranks, a.common, session);
    std::vector<job::LoadNote> notes;
    PROFANA_ASSIGN_OR_RETURN(
        job::BudgetRun run,
        WithNotes(job::MeasureBudget(a.file, a.budget, budget, request, &notes), notes, session));
    report = report::ReportRules(json, a.file, report::BudgetMode(a.budget), run.results);
  } else {
    std::optional<FunctionEventIndex> index;
    PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, a.common, session, &index));
    report = report::ReportValidation(
        json, a.file, passes::ValidateTrace(trace, LaunchIndex(trace.events)), trace);
  }
  PROFANA_RETURN_IF_ERROR(session.Emit(std::move(report.text)));
  if (report.failures.empty()) return Status::Ok();
  // A text report on standard output has just listed the failures: the message counts them.
  bool listed = !json && (a.common.output.empty() || a.common.output == "-");
  return Status(ErrorCode::kCheckFailed,
                fmt::format("{}: {}", a.file, listed ? report.count : report.failures));
}

}  // namespace profana::run
