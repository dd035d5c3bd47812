// profana diff BASE NEW: where one trace spent more time than the other, per key_averages key;
// for two allocator snapshots, how their memory differs.
#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/commands/snapshot_load.h"
#include "profana/job/diff_job.h"
#include "profana/passes/memory/snapshot_diff.h"
#include "profana/passes/trace_diff.h"
#include "profana/reporters/diff_reporter.h"
#include "profana/reporters/snapshot_diff_reporter.h"

namespace profana::app {
namespace {

struct DiffArgs {
  CommonOptions common;
  std::string base;
  std::string next;
  job::RankSelection ranks;  // --ranks, on both sides
  passes::DiffOptions options;
  int64_t row_limit = 0;  // -n: its default is AddRowLimitOption's
  std::optional<int> max_name_width;
  bool no_truncate = false;
  bool full_names = false;
  std::string color = "auto";
  bool by_rank = false;
};

Status RunSnapshotDiff(const DiffArgs& a, const InputFile& base_file, const InputFile& next_file,
                       Context& ctx) {
  OutputFormat f = a.common.format;
  if (f == OutputFormat::kMarkdown)
    return Status(ErrorCode::kInvalidArgument,
                  "two allocator snapshots compare as text, json or csv");
  PROFANA_ASSIGN_OR_RETURN(AllocatorSnapshot base,
                           LoadSnapshotForCommand(base_file, a.common, ctx));
  PROFANA_ASSIGN_OR_RETURN(AllocatorSnapshot next,
                           LoadSnapshotForCommand(next_file, a.common, ctx));
  passes::SnapshotAnalysis base_analysis = passes::AnalyzeSnapshot(base);
  passes::SnapshotAnalysis next_analysis = passes::AnalyzeSnapshot(next);
  report::SnapshotDiffContext c{&base, &next, a.base, a.next, a.row_limit};
  return Emit(report::FormatSnapshotDiffAs(
                  f, passes::DiffSnapshots(base, base_analysis, next, next_analysis), c),
              a.common, ctx);
}

Status RunDiff(const DiffArgs& a, Context& ctx) {
  // Each side opened once: to tell a snapshot from a trace, and to read either.
  job::DiffSide base = job::OpenDiffSide(a.base), next = job::OpenDiffSide(a.next);
  bool base_snapshot = IsSnapshot(base.single), next_snapshot = IsSnapshot(next.single);
  if (base_snapshot && next_snapshot)
    return RunSnapshotDiff(a, *base.single->file, *next.single->file, ctx);
  if (base_snapshot || next_snapshot)
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{} is an allocator snapshot and {} is not: diff compares two traces "
                              "or two snapshots",
                              base_snapshot ? a.base : a.next, base_snapshot ? a.next : a.base));
  report::DiffReportOptions r;
  r.base_name = a.base, r.new_name = a.next, r.row_limit = a.row_limit;
  r.color = UseColor(a.color, a.common);
  r.max_name_width = a.max_name_width, r.no_truncate = a.no_truncate, r.full_names = a.full_names;
  job::JobRequest request = SidesRequestFor(a.ranks, a.common, ctx);
  std::vector<job::LoadNote> notes;
  if (!a.by_rank) {
    PROFANA_ASSIGN_OR_RETURN(
        job::DiffRun run,
        WithNotes(job::DiffInputs(base, next, request, a.options, &notes), notes, ctx));
    return Emit(report::FormatDiffAs(a.common.format, run.diff, r), a.common, ctx);
  }
  PROFANA_ASSIGN_OR_RETURN(
      job::RankDiffsRun run,
      WithNotes(job::DiffInputsByRank(a.base, a.next, request, a.options, &notes), notes, ctx));
  return Emit(report::FormatRankDiffsAs(a.common.format, run.diffs, r), a.common, ctx);
}

}  // namespace

void RegisterDiffCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* cmd = app.add_subcommand("diff",
                                     "Compare two traces or jobs per op and kernel (key_averages "
                                     "keys): counts, self and total times, changes; or two CUDA "
                                     "allocator snapshots: memory by state and by allocation site");
  cmd->add_option("BASE", args->base,
                  "The reference: a trace, or a job (a directory of rank traces, a glob, a summary "
                  "file), its ranks combined")
      ->required();
  cmd->add_option("NEW", args->next, "The trace or job to compare with it")->required();
  AddRanksOption(cmd, &args->ranks, "Only these ranks of each job: 0-3,7");
  cmd->add_flag("--by-rank", args->by_rank, "One diff per rank, the jobs' ranks matched by rank");
  AddNamedOption(cmd, "--sort", &args->options.sort, passes::ParseDiffMetric,
                 passes::DiffMetricNames(),
                 "Order by the change of: self (self CPU + self device), self_cpu, self_device, "
                 "cpu_total, device_total, count; table's keys for these columns are accepted "
                 "too (self_cuda_time_total, cuda_total, calls, ...)")
      ->default_str("self");
  AddRowLimitOption(cmd, &args->row_limit, RowKind::kSums, INT64_MIN, "Rows to print; -1 for all");
  cmd->add_option_function<int>(
         "--max-name-width", [args](int v) { args->max_name_width = v; },
         "Widest Name column (default 48 in text, 100 in Markdown)")
      ->check(WholeNumber<int>("--max-name-width", 4).description(""));
  cmd->add_flag("--no-truncate", args->no_truncate, "Never shorten names");
  cmd->add_flag("--full-names", args->full_names,
                "Keep kernel names whole in text and Markdown (template and parameter lists are "
                "elided)");
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
