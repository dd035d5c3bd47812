// profana advise: findings about a trace or a job, ranked by the time each could save.
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/job/advice/advise_inputs.h"
#include "profana/reporters/advise_reporter.h"

namespace profana::app {
namespace {

struct AdviseArgs {
  CommonOptions common;
  std::vector<std::string> inputs;
  int64_t top = 0;  // -n: its default is AddRowLimitOption's
  int64_t small_kernel_ns = 10'000;
};

Status RunAdvise(const AdviseArgs& a, Context& ctx) {
  job::AdviceOptions options;
  options.small_kernel_ns = a.small_kernel_ns;
  std::vector<job::LoadNote> notes;
  Result<job::AdviceRun> run = job::AdviseInputs(a.inputs, LoadRequestWithProgress(a.common, ctx),
                                                 a.common.link, options, &notes);
  PrintNotes(notes, ctx);
  PROFANA_RETURN_IF_ERROR(run.status());
  ctx.inputs.insert(ctx.inputs.end(), run->paths.begin(), run->paths.end());
  return Emit(report::FormatAdviceAs(a.common.format, run->report, a.top), a.common, ctx);
}

}  // namespace

void RegisterAdviseCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<AdviseArgs>();
  CLI::App* cmd = app.add_subcommand(
      "advise",
      "What would make the steps faster: findings ranked by the time each could save (bounded "
      "by the critical path), each with its evidence and fix");
  cmd->add_option("FILE", args->inputs,
                  "Trace file, or a directory or glob of a job's rank traces; - reads standard "
                  "input")
      ->required();
  AddRowLimitOption(cmd, &args->top, RowKind::kRanked, -1,
                    "How many findings the text shows (-1: all; the other formats show all)");
  AddDurationOption(cmd, "--small-kernel", &args->small_kernel_ns, DurationUnit::kUs,
                    "small-kernels: kernels shorter than this: 10us, 0.01ms; a bare number is "
                    "microseconds (default 10)");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(
      cmd, &args->common,
      {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kMarkdown});
  SetRun(cmd, ctx, args, RunAdvise);
}

}  // namespace profana::app
