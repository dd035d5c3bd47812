#include "profana/job/analysed_traces.h"

#include <algorithm>

#include "fmt/format.h"
#include "profana/base/input_name.h"
#include "profana/base/parallel.h"
#include "profana/base/stopwatch.h"
#include "profana/job/input_kind.h"
#include "profana/job/job_inputs.h"
#include "profana/job/trace_events.h"

namespace profana::job {
namespace {

// The stages of AnalyseTrace side by side where there are two cores: the launches and steps while
// the function events are built, then the timeline's analyses while the sink takes the events.
Status AnalyseInto(const Trace& trace, const LoadedInput& loaded, const std::string& path,
                   int64_t rank, passes::LinkRule link, AnalysedTraceSink* sink,
                   std::vector<LoadNote>* notes) {
  TraceAnalyses analyses;
  Result<passes::FunctionEventList> built = Status(ErrorCode::kInternal, "no function events");
  ParallelFor(2, [&](size_t stage) {
    if (stage == 0)
      built = BuildTraceEvents(trace, loaded.function_index, path, link, notes);
    else
      AnalyseLaunchesAndSteps(trace, &analyses);
  });
  PROFANA_RETURN_IF_ERROR(built.status());
  const passes::FunctionEventList& events = *built;
  AnalyseOwners(trace, events, &analyses);
  Status added;
  ParallelFor(2, [&](size_t stage) {
    if (stage == 0)
      added = sink->AddTraceEvents(trace, events, analyses, rank, path);
    else
      AnalyseTimeline(trace, events, &analyses);
  });
  PROFANA_RETURN_IF_ERROR(added);
  return sink->AddTraceAnalyses(trace, events, analyses, rank, path);
}

}  // namespace

Result<std::vector<std::string>> AnalyseInputs(const std::vector<std::string>& inputs,
                                               const LoadRequest& load, passes::LinkRule link,
                                               AnalysedTraceSink* sink,
                                               std::vector<LoadNote>* notes) {
  return AnalyseInputs(inputs, SniffInputs(inputs), load, link, sink, notes);
}

Result<std::vector<std::string>> AnalyseInputs(const std::vector<std::string>& inputs,
                                               SniffedInputs sniffed, const LoadRequest& load,
                                               passes::LinkRule link, AnalysedTraceSink* sink,
                                               std::vector<LoadNote>* notes) {
  // The file the sniff opened is the one read: a trace loaded, a summary refused below.
  bool single = sniffed.single.has_value();
  std::vector<JobInput> expanded;
  if (single) {
    expanded.push_back(std::move(*sniffed.single));
  } else {
    PROFANA_ASSIGN_OR_RETURN(expanded, ExpandInputs(inputs, std::move(sniffed.summary)));
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
    int64_t rank =
        single ? std::max<int64_t>(trace.metadata.rank, 0) : ResolveRank(in, trace.metadata.rank);
    PROFANA_RETURN_IF_ERROR(AnalyseInto(trace, loaded, in.path, rank, link, sink, notes));
    notes->push_back(
        {LoadNote::Level::kDebug,
         fmt::format("{}: rank {} analysed and written in {:.1f} ms (peak RSS {:.0f} MB)",
                     InputName(in.path), rank, clock.Lap(), PeakRssMb())});
  }
  return paths;
}

}  // namespace profana::job
