// profana tree: the CPU op tree per thread, with self and total time, the device activity each op
// launched, and input shapes.
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/passes/event_times.h"
#include "profana/passes/function_events.h"
#include "profana/passes/thread_roots.h"
#include "profana/reporters/tree_reporter.h"

namespace profana::app {
namespace {

struct TreeArgs {
  CommonOptions common;
  std::string file;
  std::string thread;
  int64_t min_time_ns = 0;
  bool no_fold = false;
  report::TreeReportOptions report;
};

Status RunTree(const TreeArgs& a, Context& ctx) {
  std::optional<FunctionEventIndex> index;
  // The tree shows no stacks, no collectives and no launch configurations.
  CommonOptions common = a.common;
  common.unread.stacks = true;
  common.unread.collectives = true;
  common.unread.device_args = true;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, common, ctx, &index));
  PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                           BuildEventsForCommand(trace, index, a.file, common, ctx));
  passes::EventTimes times(trace, events);
  std::vector<passes::ThreadRoots> threads = passes::RootsByThread(trace, events, a.thread);
  report::TreeReportOptions options = a.report;
  options.min_time_us = static_cast<double>(a.min_time_ns) / 1000;
  options.input = a.file;
  options.fold = !a.no_fold;
  return EmitStreamed(a.common, ctx, [&](OutputSink* sink) {
    return a.common.format == OutputFormat::kJson
               ? report::WriteTreeJson(trace, events, times, threads, options, sink)
               : report::WriteTreeText(trace, events, times, threads, options, sink);
  });
}

}  // namespace

void RegisterTreeCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<TreeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "tree", "The CPU op tree per thread: total and self time, launched kernels, shapes");
  cmd->add_option("FILE", args->file, "Trace file; - reads standard input")->required();
  cmd->add_option("--depth", args->report.depth, "Show at most N levels (1 = top-level ops only)")
      ->check(WholeNumber<int>("--depth", 1));
  cmd->add_option("--thread", args->thread, "Only this thread (its tid, or its name)");
  AddDurationOption(cmd, "--min-time", &args->min_time_ns, DurationUnit::kUs,
                    "Hide ops (and what they contain) shorter than this: 50us, 1.5ms; a bare "
                    "number is microseconds");
  cmd->add_flag("--no-fold", args->no_fold,
                "Print every op (text folds identical consecutive siblings into one line, xN)");
  cmd->add_flag("--full-names", args->report.full_names,
                "Keep kernel names whole in text (template and parameter lists are elided)");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunTree);
}

}  // namespace profana::app
