#include "profana/run/tree.h"

#include "profana/passes/event_times.h"
#include "profana/passes/function_events.h"
#include "profana/passes/thread_roots.h"
#include "profana/run/command_load.h"

namespace profana::run {

Status RunTree(const TreeArgs& a, Session& session) {
  std::optional<FunctionEventIndex> index;
  // The tree shows no stacks, no collectives and no launch configurations.
  CommonOptions common = a.common;
  common.unread.stacks = true;
  common.unread.collectives = true;
  common.unread.device_args = true;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, common, session, &index));
  PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                           BuildEventsForCommand(trace, index, a.file, common, session));
  passes::EventTimes times(trace, events);
  std::vector<passes::ThreadRoots> threads = passes::RootsByThread(trace, events, a.thread);
  report::TreeReportOptions options = a.report;
  options.min_time_us = static_cast<double>(a.min_time_ns) / 1000;
  options.input = a.file;
  options.fold = !a.no_fold;
  return session.EmitStreamed([&](OutputSink* sink) {
    return report::WriteTreeAs(a.common.format, trace, events, times, threads, options, sink);
  });
}

}  // namespace profana::run
