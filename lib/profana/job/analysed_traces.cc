#include "profana/job/analysed_traces.h"

#include <algorithm>

#include "fmt/format.h"
#include "profana/base/input_name.h"
#include "profana/base/stopwatch.h"
#include "profana/job/input_kind.h"
#include "profana/job/job_inputs.h"
#include "profana/job/trace_events.h"

namespace profana::job {

Result<std::vector<std::string>> AnalyseInputs(const std::vector<std::string>& inputs,
                                               const LoadRequest& load, passes::LinkRule link,
                                               AnalysedTraceSink* sink,
                                               std::vector<LoadNote>* notes) {
  std::optional<JobInput> single = SingleTraceInput(inputs);
  std::vector<JobInput> expanded;
  if (single) {
    expanded.push_back(std::move(*single));
  } else {
    PROFANA_ASSIGN_OR_RETURN(expanded, ExpandInputs(inputs));
  }
  std::vector<std::string> paths;
  for (const JobInput& in : expanded) {
    PROFANA_ASSIGN_OR_RETURN(std::shared_ptr<InputFile> file, OpenJobInput(in));
    if (InputKindOf(*file) == InputKind::kSummary)
      return Status(ErrorCode::kInvalidArgument,
                    in.path + " is a summary file (profana summarize): a database holds traces");
    paths.push_back(in.path);
    PROFANA_ASSIGN_OR_RETURN(LoadedInput loaded, LoadInput(std::move(file), load, notes));
    const Trace& trace = loaded.trace;
    Stopwatch clock;
    PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                             BuildTraceEvents(trace, loaded.function_index, in.path, link, notes));
    TraceAnalyses analyses = AnalyseTrace(trace, events);
    notes->push_back(
        {LoadNote::Level::kDebug, fmt::format("{}: function events and analyses in {:.1f} ms",
                                              InputName(in.path), clock.Lap())});
    int64_t rank =
        single ? std::max<int64_t>(trace.metadata.rank, 0) : ResolveRank(in, trace.metadata.rank);
    PROFANA_RETURN_IF_ERROR(sink->AddAnalysedTrace(trace, events, analyses, rank, in.path));
    notes->push_back({LoadNote::Level::kDebug,
                      fmt::format("{}: rank {} written in {:.1f} ms (peak RSS {:.0f} MB)",
                                  InputName(in.path), rank, clock.Lap(), PeakRssMb())});
  }
  return paths;
}

}  // namespace profana::job
