#include "profana/run/merge.h"

#include "profana/job/job_inputs.h"
#include "profana/job/summary_file.h"
#include "profana/job/summary_merge.h"
#include "profana/run/command_load.h"

namespace profana::run {

Status RunMerge(const MergeArgs& a, Session& session) {
  PROFANA_ASSIGN_OR_RETURN(std::vector<job::JobInput> inputs, job::ExpandInputs(a.inputs));
  for (const job::JobInput& in : inputs) session.Read(in.path);
  Stopwatch clock;
  PROFANA_ASSIGN_OR_RETURN(job::RankSummary merged, job::MergeSummaryFiles(inputs));
  session.Debug("{} summar{} merged in {:.1f} ms (peak RSS {:.0f} MB)", inputs.size(),
                inputs.size() == 1 ? "y" : "ies", clock.Lap(), PeakRssMb());
  return session.Emit(job::FormatSummary(merged));
}

}  // namespace profana::run
