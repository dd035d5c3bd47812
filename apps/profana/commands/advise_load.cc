#include "profana/commands/advise_load.h"

#include <algorithm>

#include "profana/importers/chrome_json/source_scan.h"
#include "profana/job/collective_analysis.h"
#include "profana/job/job_inputs.h"

namespace profana::app {

Result<report::AdviceReport> LoadAdvice(const std::vector<std::string>& input_args,
                                        const CommonOptions& o, Context& ctx,
                                        const job::AdviceOptions& options) {
  PROFANA_ASSIGN_OR_RETURN(std::vector<job::JobInput> inputs, job::ExpandInputs(input_args));
  report::AdviceReport report;
  report.inputs = input_args;
  std::vector<job::RankCalls> calls;
  for (const job::JobInput& in : inputs) {
    std::optional<FunctionEventIndex> index;
    PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(in.path, o, ctx, &index));
    PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                             BuildEventsForCommand(trace, index, in.path, o, ctx));
    LaunchIndex launches(trace.events);
    InputLimits limits;
    if (o.max_memory) limits.max_bytes = *o.max_memory;
    std::optional<json::SourceFile> file;
    if (auto read = json::ReadSourceFile(in.path, trace, limits); read.ok())
      file = std::move(*read);
    else
      ctx.log.Warn("{}", read.status().message());
    job::AdviceContext c =
        job::MakeAdviceContext(trace, events, launches, file ? &file->events : nullptr, options);
    int64_t rank =
        inputs.size() > 1 ? job::ResolveRank(in, trace.metadata.rank) : trace.metadata.rank;
    if (rank >= 0) report.ranks.push_back(rank);
    report.critical_path_ns += c.critical_path_ns;
    report.steps_wall_ns += c.steps_wall_ns;
    std::vector<job::Finding> found = job::AdviseTrace(c, rank);
    report.findings.insert(report.findings.end(), found.begin(), found.end());
    if (inputs.size() > 1) {
      job::RankCalls rc;
      rc.rank = rank;
      rc.calls = job::FindCollectiveCalls(trace);
      rc.steps = static_cast<int64_t>(c.steps.size());
      rc.step_wall_ns = c.steps_wall_ns;
      calls.push_back(std::move(rc));
    }
  }
  if (calls.size() > 1) {
    std::sort(calls.begin(), calls.end(),
              [](const job::RankCalls& x, const job::RankCalls& y) { return x.rank < y.rank; });
    job::CollectivesResult collectives = job::AnalyzeCollectives(calls, /*align=*/true);
    std::vector<job::Finding> found = job::AdviseJob(collectives, report.critical_path_ns);
    report.findings.insert(report.findings.end(), found.begin(), found.end());
  }
  job::RankFindings(&report.findings);
  std::sort(report.ranks.begin(), report.ranks.end());
  return report;
}

}  // namespace profana::app
