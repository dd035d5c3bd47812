// Advice on a trace or a job's traces: each input loaded and its findings made (AdviseTrace), a
// trace at a time; for a job, the straggler rule on the ranks' collectives too (AdviseJob).
// `advise` prints the report; `check --budget` measures advise.* rules on its findings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/job/advice/advice.h"
#include "profana/job/job_inputs.h"
#include "profana/job/load_input.h"
#include "profana/passes/function_events.h"

namespace profana::job {

struct AdviceReport {
  std::vector<std::string> inputs;
  std::vector<int64_t> ranks;    // the ranks read; empty for one trace without a rank
  int64_t critical_path_ns = 0;  // the bound: the analysed steps' critical paths, all ranks
  int64_t steps_wall_ns = 0;
  std::vector<Finding> findings;  // ranked
};

struct AdviceRun {
  AdviceReport report;
  std::vector<std::string> paths;  // the traces read, in order
};

// `inputs`: FILE, DIR or GLOB arguments (job_inputs.h), each trace loaded by `load` and its
// kernels credited under `link`. A trace whose file cannot be read a second time for the
// cuda_sync waits gets a note and is advised without them. Errors: the first input that does
// not expand or load. The notes are appended to *notes, those before a failure too.
Result<AdviceRun> AdviseInputs(const std::vector<std::string>& inputs, const LoadRequest& load,
                               passes::LinkRule link, const AdviceOptions& options,
                               std::vector<LoadNote>* notes);
// The same for `input_args` already expanded (ExpandInputs), each read from the file the expansion
// holds open.
Result<AdviceRun> AdviseInputs(const std::vector<std::string>& input_args,
                               const std::vector<JobInput>& inputs, const LoadRequest& load,
                               passes::LinkRule link, const AdviceOptions& options,
                               std::vector<LoadNote>* notes);

}  // namespace profana::job
