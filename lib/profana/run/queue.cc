#include "profana/run/queue.h"

#include "profana/job/run_job.h"
#include "profana/passes/function_events.h"
#include "profana/passes/gpu_evaluation.h"
#include "profana/passes/gpu_streams.h"
#include "profana/reporters/queue_reporter.h"
#include "profana/run/command_load.h"

namespace profana::run {

Status RunQueue(const QueueArgs& a, Session& session) {
  CommonOptions common = a.common;
  common.unread = job::TimelineUnread(/*reads_stacks=*/false);
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, common, session, &index));
  WarnWithoutDeviceActivity(trace, a.file, session);
  PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                           BuildEventsForCommand(trace, index, a.file, common, session));
  LaunchIndex launches(trace.events);
  passes::GpuEvaluation eval = passes::EvaluateGpu(trace, events, launches);
  passes::QueueModel model =
      a.model == "hta" ? passes::QueueModel::kHta : passes::QueueModel::kProfana;
  std::vector<passes::StreamQueue> streams =
      passes::ComputeStreamQueues(trace, launches, model, a.limit);
  return session.Emit(report::FormatQueueAs(a.common.format, a.file, trace, events.origin_ns, eval,
                                            streams, model, a.limit));
}

}  // namespace profana::run
