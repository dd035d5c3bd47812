// profana info: what a trace file holds (format, counts, time span, devices) and what was wrong
// with it (every diagnostic kind with its count and first samples).
#include "profana/commands/commands.h"
#include "profana/passes/event_counts.h"
#include "profana/passes/function_events.h"
#include "profana/passes/graph_launches.h"
#include "profana/passes/stacks.h"
#include "profana/reporters/info_reporter.h"

namespace profana::app {
namespace {

struct InfoArgs {
  CommonOptions common;
  std::string file;
};

Status RunInfo(const InfoArgs& a, Context& ctx) {
  // info reports the diagnostics itself.
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(
      Trace trace, LoadForCommand(a.file, a.common, ctx, &index, DiagnosticWarning::kSilent));
  passes::EventCounts summary = passes::CountEvents(trace);
  PROFANA_ASSIGN_OR_RETURN(
      passes::FunctionEventList events,
      BuildEventsForCommand(trace, index, a.file, a.common, ctx, /*counts=*/true));
  passes::GraphLaunchSummary graphs =
      passes::SummarizeGraphLaunches(trace, events, LaunchIndex(trace.events));
  report::InfoStacks stacks{passes::FindPythonStackSources(trace),
                            passes::CountPythonStacks(trace, events)};
  std::string name = InputName(a.file);
  return Emit(report::FormatInfoAs(a.common.format, name, trace, summary, events, graphs, stacks),
              a.common, ctx);
}

}  // namespace

void RegisterInfoCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<InfoArgs>();
  args->common.keeps_flows = true;
  CLI::App* cmd = app.add_subcommand(
      "info", "Describe a trace file: format, counts, span, devices, diagnostics");
  cmd->add_option("FILE", args->file, "Trace file; - reads standard input")->required();
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunInfo);
}

}  // namespace profana::app
