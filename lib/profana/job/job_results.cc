#include "profana/job/job_results.h"

#include <utility>

namespace profana::job {

Result<JobSteps> StepsOfJob(const JobSummary& job, std::optional<double> peak_tflops) {
  JobSteps out;
  PROFANA_ASSIGN_OR_RETURN(out.all, job.Combine());
  if (peak_tflops)
    UsePeakForAllFlops(*peak_tflops, &out.all.steps);
  else
    out.devices_without_peak = DevicesWithoutPeak(out.all);
  out.overview = OverviewOfSteps(out.all.steps);
  return out;
}

JobCollectives CollectivesOfJob(JobSummary* job, bool align) {
  std::vector<RankCalls> ranks = TakeRankCalls(job);
  JobCollectives out;
  for (const RankCalls& r : ranks) out.calls += static_cast<int64_t>(r.calls.size());
  out.result = AnalyzeCollectives(ranks, align);
  return out;
}

}  // namespace profana::job
