// What the commands that read a whole job share: the inputs (FILE, DIR or GLOB, several), the
// --ranks and --by-rank options, and the request job::RunJob (lib/profana/job/run_job.h) reads
// them with.
#pragma once

#include <string>
#include <vector>

#include "profana/commands/commands.h"
#include "profana/job/run_job.h"
#include "profana/passes/budget.h"
#include "profana/passes/function_events.h"
#include "profana/passes/trace_diff.h"
#include "profana/reporters/diff_reporter.h"

namespace profana::app {

struct JobArgs {
  std::vector<std::string> inputs;
  std::string ranks;     // --ranks 0-3,7
  bool by_rank = false;  // --by-rank: one block per rank instead of the combination
  int jobs = 0;          // --jobs: traces read at once; 0 = the cores this process may use
};

// Adds the positional inputs (required) and --ranks; --by-rank where `by_rank` is set.
void AddJobInputs(CLI::App* command, JobArgs* args, const std::string& what, bool by_rank);

// True when the command should keep its single-trace path (one file, no --ranks, no --by-rank).
bool IsSingleTraceRun(const JobArgs& args);

// The job the command reads: its inputs, --ranks, --jobs, the load request of its traces and
// --link; the command then says what each rank's summary keeps (job/run_job.h).
Result<job::JobRequest> JobRequestFor(const JobArgs& args, const CommonOptions& options);
// RunJob, with its notes printed and its inputs known to Emit (which refuses to overwrite one).
Result<job::JobRun> RunJobForCommand(const job::JobRequest& request, Context& ctx);

// The job's key averages (`keys`) per rank, from traces or summary files, for `table`; with
// `steps`, each rank's step rows too.
Result<job::JobSummary> LoadTableJob(const JobArgs& args, const CommonOptions& options,
                                     Context& ctx, const passes::KeyAverageOptions& keys,
                                     bool steps = false);

// BASE against NEW for `diff` (and `check --baseline`): two traces, or, when either is a
// directory, a glob or a summary file (or --ranks is given), two jobs, each its ranks' key
// averages and steps combined.
Result<passes::TraceDiff> DiffInputs(const std::string& base, const std::string& next,
                                     const std::string& ranks, const CommonOptions& options,
                                     Context& ctx, const passes::DiffOptions& diff);

// --by-rank: the two jobs' ranks matched by rank, one diff each, in rank order; a rank in one job
// only is all added or all removed.
Result<std::vector<report::RankDiff>> DiffInputsByRank(const std::string& base,
                                                       const std::string& next,
                                                       const std::string& ranks,
                                                       const CommonOptions& options, Context& ctx,
                                                       const passes::DiffOptions& diff);

// The rules of a budget measured on FILE: one trace as a trace (EvaluateBudget), unless a rule
// is a job metric; a directory, a glob or a summary file (or a job metric, or --ranks) as a job,
// its ranks (those `ranks` selects) combined (job::EvaluateJobBudget). Errors start with the
// budget's file name.
Result<std::vector<passes::RuleResult>> MeasureBudget(const std::string& input,
                                                      const std::string& ranks,
                                                      const std::string& budget_file,
                                                      const passes::Budget& budget,
                                                      const CommonOptions& options, Context& ctx);

}  // namespace profana::app
