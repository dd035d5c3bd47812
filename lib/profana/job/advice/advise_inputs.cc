#include "profana/job/advice/advise_inputs.h"

#include <algorithm>

#include "profana/importers/chrome_json/source_scan.h"
#include "profana/job/collective_analysis.h"
#include "profana/job/job_inputs.h"
#include "profana/job/trace_events.h"

namespace profana::job {

Result<AdviceRun> AdviseInputs(const std::vector<std::string>& input_args, const LoadRequest& load,
                               passes::LinkRule link, const AdviceOptions& options,
                               std::vector<LoadNote>* notes) {
  PROFANA_ASSIGN_OR_RETURN(std::vector<JobInput> inputs, ExpandInputs(input_args));
  return AdviseInputs(input_args, inputs, load, link, options, notes);
}

Result<AdviceRun> AdviseInputs(const std::vector<std::string>& input_args,
                               const std::vector<JobInput>& inputs, const LoadRequest& load,
                               passes::LinkRule link, const AdviceOptions& options,
                               std::vector<LoadNote>* notes) {
  AdviceRun run;
  AdviceReport& report = run.report;
  report.inputs = input_args;
  std::vector<RankCalls> calls;
  for (const JobInput& in : inputs) {
    run.paths.push_back(in.path);
    PROFANA_ASSIGN_OR_RETURN(std::shared_ptr<InputFile> opened, OpenJobInput(in));
    PROFANA_ASSIGN_OR_RETURN(LoadedInput loaded, LoadInput(std::move(opened), load, notes));
    const Trace& trace = loaded.trace;
    PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                             BuildTraceEvents(trace, loaded.function_index, in.path, link, notes));
    LaunchIndex launches(trace.events);
    InputLimits limits;
    limits.max_bytes = load.load.limits.max_bytes;
    std::optional<json::SourceFile> file;
    if (auto read = json::ReadSourceFile(*loaded.file, trace, limits); read.ok())
      file = std::move(*read);
    else
      notes->push_back({LoadNote::Level::kWarning, std::string(read.status().message())});
    AdviceContext c =
        MakeAdviceContext(trace, events, launches, file ? &file->events : nullptr, options);
    int64_t rank = inputs.size() > 1 ? ResolveRank(in, trace.metadata.rank) : trace.metadata.rank;
    if (rank >= 0) report.ranks.push_back(rank);
    report.critical_path_ns += c.critical_path_ns;
    report.steps_wall_ns += c.steps_wall_ns;
    std::vector<Finding> found = AdviseTrace(c, rank);
    report.findings.insert(report.findings.end(), found.begin(), found.end());
    if (inputs.size() > 1) {
      RankCalls rc;
      rc.rank = rank;
      rc.calls = FindCollectiveCalls(trace);
      rc.steps = static_cast<int64_t>(c.steps.size());
      rc.step_wall_ns = c.steps_wall_ns;
      calls.push_back(std::move(rc));
    }
  }
  if (calls.size() > 1) {
    std::sort(calls.begin(), calls.end(),
              [](const RankCalls& x, const RankCalls& y) { return x.rank < y.rank; });
    CollectivesResult collectives = AnalyzeCollectives(calls, /*align=*/true);
    std::vector<Finding> found = AdviseJob(collectives, report.critical_path_ns);
    report.findings.insert(report.findings.end(), found.begin(), found.end());
  }
  RankFindings(&report.findings);
  std::sort(report.ranks.begin(), report.ranks.end());
  return run;
}

}  // namespace profana::job
