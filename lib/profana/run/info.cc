#include "profana/run/info.h"

#include "profana/passes/event_counts.h"
#include "profana/passes/function_events.h"
#include "profana/passes/graph_launches.h"
#include "profana/passes/stacks.h"
#include "profana/reporters/info_reporter.h"
#include "profana/run/command_load.h"

namespace profana::run {

Status RunInfo(const InfoArgs& a, Session& session) {
  // info reports the diagnostics itself.
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(
      Trace trace, LoadForCommand(a.file, a.common, session, &index, DiagnosticWarning::kSilent));
  passes::EventCounts summary = passes::CountEvents(trace);
  PROFANA_ASSIGN_OR_RETURN(
      passes::FunctionEventList events,
      BuildEventsForCommand(trace, index, a.file, a.common, session, /*counts=*/true));
  passes::GraphLaunchSummary graphs =
      passes::SummarizeGraphLaunches(trace, events, LaunchIndex(trace.events));
  report::InfoStacks stacks{passes::FindPythonStackSources(trace),
                            passes::CountPythonStacks(trace, events)};
  std::string name = InputName(a.file);
  return session.Emit(
      report::FormatInfoAs(a.common.format, name, trace, summary, events, graphs, stacks));
}

}  // namespace profana::run
