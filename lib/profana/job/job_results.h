// What `steps` and `collectives` make of a job's rank summaries (job/run_job.h), as the data
// their reporters format: the commands run the job, call one of these and print.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/job/collective_analysis.h"
#include "profana/job/rank_summary.h"
#include "profana/job/step_statistics.h"

namespace profana::job {

struct JobSteps {
  RankSummary all;  // the ranks combined (Combine): the steps in (rank, step) order
  StepsOverview overview;
  // The devices whose FLOPs have no MFU because the peak table does not know them (none when
  // one peak is given for all): what the note asking for --peak-tflops names.
  std::vector<std::string> devices_without_peak;
};

// The job's steps, with MFU from `peak_tflops` for every FLOP when given (--peak-tflops), else
// from the peak table (UsePeakForAllFlops, DevicesWithoutPeak).
Result<JobSteps> StepsOfJob(const JobSummary& job, std::optional<double> peak_tflops);

struct JobCollectives {
  CollectivesResult result;
  int64_t calls = 0;  // communication kernels read, over every rank
};

// The collective calls taken from each rank's summary (TakeRankCalls), matched across the ranks
// and, with `align`, their clocks aligned (AnalyzeCollectives).
JobCollectives CollectivesOfJob(JobSummary* job, bool align);

}  // namespace profana::job
