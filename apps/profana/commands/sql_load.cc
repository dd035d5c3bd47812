#include "profana/commands/sql_load.h"

#include "profana/job/input_kind.h"
#include "profana/job/job_inputs.h"
#include "profana/job/trace_analyses.h"

namespace profana::app {

Status WriteTracesToDatabase(const std::vector<std::string>& inputs, const CommonOptions& options,
                             Context& ctx, report::SqlDatabaseWriter* writer) {
  bool single = job::IsSingleTrace(inputs);
  std::vector<job::JobInput> expanded;
  if (single) {
    expanded.push_back(job::JobInput{inputs[0], 0, std::nullopt, std::nullopt});
  } else {
    PROFANA_ASSIGN_OR_RETURN(expanded, job::ExpandInputs(inputs));
  }
  for (const job::JobInput& in : expanded) {
    if (job::InputKindOf(in.path) == job::InputKind::kSummary)
      return Status(ErrorCode::kInvalidArgument,
                    in.path + " is a summary file (profana summarize): a database holds traces");
    if (in.path != "-") ctx.inputs.push_back(in.path);
    std::optional<FunctionEventIndex> index;
    PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(in.path, options, ctx, &index));
    Stopwatch clock;
    PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                             BuildEventsForCommand(trace, index, in.path, options, ctx));
    job::TraceAnalyses analyses = job::AnalyseTrace(trace, events);
    ctx.log.Debug("{}: function events and analyses in {:.1f} ms", InputName(in.path), clock.Lap());
    int64_t rank = single ? std::max<int64_t>(trace.metadata.rank, 0)
                          : job::ResolveRank(in, trace.metadata.rank);
    PROFANA_RETURN_IF_ERROR(
        writer->AddTrace(trace, events, analyses, report::SqlTraceSource{rank, in.path}));
    ctx.log.Debug("{}: rank {} written in {:.1f} ms (peak RSS {:.0f} MB)", InputName(in.path), rank,
                  clock.Lap(), PeakRssMb());
  }
  return Status::Ok();
}

}  // namespace profana::app
