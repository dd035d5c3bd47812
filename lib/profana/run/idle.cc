#include "profana/run/idle.h"

#include "profana/job/run_job.h"
#include "profana/passes/function_events.h"
#include "profana/passes/gpu_streams.h"
#include "profana/run/command_load.h"

namespace profana::run {

Status RunIdle(const IdleArgs& a, Session& session) {
  CommonOptions common = a.common;
  common.unread = job::TimelineUnread(/*reads_stacks=*/false);
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, common, session, &index));
  // (the text report says it in its place)
  if (a.common.format != OutputFormat::kText) WarnWithoutDeviceActivity(trace, a.file, session);
  PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                           BuildEventsForCommand(trace, index, a.file, common, session));
  passes::IdleBreakdown b = passes::ComputeIdleBreakdown(
      trace, events, LaunchIndex(trace.events), a.kernel_delay_ns, static_cast<size_t>(a.gaps));
  report::IdleTextOptions text = a.text;
  text.gaps_asked = static_cast<int>(a.gaps);
  return session.Emit(report::FormatIdleAs(a.common.format, a.file, trace, events, b, text));
}

}  // namespace profana::run
