// profana diff BASE NEW: where one trace spent more time than the other, per key_averages key.
#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/passes/function_events.h"
#include "profana/passes/trace_diff.h"
#include "profana/reporters/diff_reporter.h"

namespace profana::app {
namespace {

struct DiffArgs {
  CommonOptions common;
  std::string base;
  std::string next;
  std::string ranks;  // --ranks, on both sides
  passes::DiffOptions options;
  int64_t row_limit = 30;
  std::string color = "auto";
};

int64_t Ranks(const job::RankSummary& s) { return static_cast<int64_t>(s.sources.size()); }

Status RunDiff(const DiffArgs& a, Context& ctx) {
  passes::TraceDiff diff;
  if (IsSingleTraceRun({{a.base}, a.ranks}) && IsSingleTraceRun({{a.next}, a.ranks})) {
    std::optional<FunctionEventIndex> base_index, next_index;
    PROFANA_ASSIGN_OR_RETURN(Trace base, LoadForCommand(a.base, a.common, ctx, &base_index));
    PROFANA_ASSIGN_OR_RETURN(Trace next, LoadForCommand(a.next, a.common, ctx, &next_index));
    passes::FunctionEventList base_events = BuildEventsForCommand(base, base_index, a.common, ctx);
    passes::FunctionEventList next_events = BuildEventsForCommand(next, next_index, a.common, ctx);
    diff = passes::DiffTraces(base, base_events, next, next_events, a.options);
  } else {
    PROFANA_ASSIGN_OR_RETURN(job::RankSummary base,
                             LoadCombinedJob(a.base, a.ranks, a.common, ctx, a.options.keys));
    PROFANA_ASSIGN_OR_RETURN(job::RankSummary next,
                             LoadCombinedJob(a.next, a.ranks, a.common, ctx, a.options.keys));
    diff = passes::DiffRows({&base.strings, &base.rows, job::JobStepStats(base), Ranks(base)},
                            {&next.strings, &next.rows, job::JobStepStats(next), Ranks(next)},
                            a.options);
  }

  report::DiffReportOptions r;
  r.base_name = a.base;
  r.new_name = a.next;
  r.row_limit = a.row_limit;
  r.color = UseColor(a.color, a.common);
  switch (a.common.format) {
    case OutputFormat::kJson:
      return Emit(report::FormatDiffJson(diff, r), a.common, ctx);
    case OutputFormat::kCsv:
      return Emit(report::FormatDiffCsv(diff, r), a.common, ctx);
    case OutputFormat::kMarkdown:
      return Emit(report::FormatDiffMarkdown(diff, r), a.common, ctx);
    default:
      return Emit(report::FormatDiffText(diff, r), a.common, ctx);
  }
}

}  // namespace

void RegisterDiffCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* cmd = app.add_subcommand("diff",
                                     "Compare two traces or jobs per op and kernel (key_averages "
                                     "keys): counts, self and total times, changes");
  cmd->add_option("BASE", args->base,
                  "The reference: a trace, or a job (a directory of rank traces, a glob, a summary "
                  "file), its ranks combined")
      ->required();
  cmd->add_option("NEW", args->next, "The trace or job to compare with it")->required();
  cmd->add_option("--ranks", args->ranks, "Only these ranks of each job: 0-3,7");
  AddNamedOption(cmd, "--sort", &args->options.sort, passes::ParseDiffMetric, "metric",
                 "self, self_cpu, self_device, cpu_total, device_total, count",
                 "Order by the change of: self (self CPU + self device), self_cpu, self_device, "
                 "cpu_total, device_total, count")
      ->default_str("self");
  cmd->add_option("--row-limit", args->row_limit, "Rows to print; -1 for all")
      ->default_val(30)
      ->check(WholeNumber("--row-limit", INT64_MIN));
  cmd->add_flag("--group-by-input-shape", args->options.keys.group_by_input_shape,
                "Key rows by (name, input shapes)");
  cmd->add_option("--group-by-stack", args->options.keys.group_by_stack_n,
                  "Key rows by (name, top N stack frames)")
      ->check(WholeNumber<int>("--group-by-stack", 0).description(""));
  cmd->add_option("--color", args->color,
                  "Colour the changes: auto (when standard output is a terminal), always, never")
      ->check(OneOf("--color", "mode", {"auto", "always", "never"}))
      ->default_str("auto");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(
      cmd, &args->common,
      {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kMarkdown});
  SetRun(cmd, ctx, args, RunDiff);
}

}  // namespace profana::app
