// profana check FILE: a CI gate. With --budget, every rule of the budget file, on a trace or a
// whole job; with --baseline, no regression beyond --max-regression; with neither, the trace's
// own consistency. Exit 0 when everything holds, 1 when a rule fails (each failure listed), 2 for
// bad input or a bad budget.
#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/job/budget_job.h"
#include "profana/job/diff_job.h"
#include "profana/passes/budget.h"
#include "profana/passes/function_events.h"
#include "profana/passes/trace_validation.h"
#include "profana/reporters/check_reporter.h"

namespace profana::app {
namespace {

struct CheckArgs {
  CommonOptions common;
  std::string file;
  std::string budget;
  std::string baseline;
  job::RankSelection ranks;  // --ranks 0-3,7: only these ranks of a job
  double max_regression = 0.05;
};

Status RunCheck(const CheckArgs& a, Context& ctx) {
  if (!a.budget.empty() && !a.baseline.empty())
    return Status(ErrorCode::kInvalidArgument, "--budget and --baseline: one check at a time");
  if (!a.ranks.all() && a.budget.empty() && a.baseline.empty())
    return Status(ErrorCode::kInvalidArgument, "--ranks: only with --budget or --baseline");
  passes::Budget budget;
  if (!a.budget.empty()) {
    ctx.inputs.push_back(a.budget);
    PROFANA_ASSIGN_OR_RETURN(std::string text,
                             ReadTextFile(a.budget, a.common, passes::CouldStartBudget));
    PROFANA_ASSIGN_OR_RETURN(budget, passes::ParseBudget(text, a.budget));
  }
  bool json = a.common.format == OutputFormat::kJson;
  report::CheckReport report;
  if (!a.baseline.empty()) {  // traces or jobs (a directory, a glob, a summary file)
    job::JobRequest request = SidesRequestFor(a.ranks, a.common, ctx);
    std::vector<job::LoadNote> notes;
    PROFANA_ASSIGN_OR_RETURN(
        job::DiffRun run, WithNotes(job::DiffInputs(job::OpenDiffSide(a.baseline),
                                                    job::OpenDiffSide(a.file), request, {}, &notes),
                                    notes, ctx));
    report = report::ReportRules(json, a.file, report::BaselineMode(a.baseline, a.max_regression),
                                 passes::BaselineRules(run.diff, a.max_regression));
  } else if (!a.budget.empty()) {  // a trace, or a job: a directory, a glob or a summary file
    job::JobRequest request = SidesRequestFor(a.ranks, a.common, ctx);
    std::vector<job::LoadNote> notes;
    PROFANA_ASSIGN_OR_RETURN(
        job::BudgetRun run,
        WithNotes(job::MeasureBudget(a.file, a.budget, budget, request, &notes), notes, ctx));
    report = report::ReportRules(json, a.file, report::BudgetMode(a.budget), run.results);
  } else {
    std::optional<FunctionEventIndex> index;
    PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, a.common, ctx, &index));
    report = report::ReportValidation(
        json, a.file, passes::ValidateTrace(trace, LaunchIndex(trace.events)), trace);
  }
  PROFANA_RETURN_IF_ERROR(Emit(std::move(report.text), a.common, ctx));
  if (report.failures.empty()) return Status::Ok();
  // A text report on standard output has just listed the failures: the message counts them.
  bool listed = !json && (a.common.output.empty() || a.common.output == "-");
  return Status(ErrorCode::kCheckFailed,
                fmt::format("{}: {}", a.file, listed ? report.count : report.failures));
}
}  // namespace

void RegisterCheckCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand("check",
                                     "CI gate: check a trace against a budget file or a baseline "
                                     "trace, or validate it; exit 1 on failure");
  cmd->add_option(
         "FILE", args->file,
         "Trace file to check (with --budget or --baseline, also a job: a directory, glob or "
         "summary)")
      ->required();
  cmd->add_option("--budget", args->budget,
                  "Budget file (JSON; docs/budget.md): rules with limits");
  cmd->add_option("--baseline", args->baseline,
                  "A reference trace or job: fail when FILE is slower by --max-regression");
  AddRanksOption(cmd, &args->ranks, "Only these ranks of a job (and of a baseline job): 0-3,7");
  AddParsedOption(
      cmd, "--max-regression",
      [args](const std::string& s) -> Status {
        PROFANA_ASSIGN_OR_RETURN(args->max_regression, ParsePercentage(s));
        return Status::Ok();
      },
      "Allowed growth over the baseline: 5% or 0.05")
      ->default_str("5%");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunCheck);
}

}  // namespace profana::app
