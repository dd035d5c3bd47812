// What the commands that read a whole job share: the inputs (FILE, DIR or GLOB, several), the
// --ranks and --by-rank options, and the request job::RunJob (lib/profana/job/run_job.h) reads
// them with.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "profana/commands/commands.h"
#include "profana/job/run_job.h"

namespace profana::app {

struct JobArgs {
  std::vector<std::string> inputs;
  job::RankSelection ranks;  // --ranks 0-3,7, parsed as read; all() when not given
  bool by_rank = false;      // --by-rank: one block per rank instead of the combination
  int jobs = 0;              // --jobs: traces read at once; 0 = the cores this process may use
};

// Adds the positional inputs (required) and --ranks; --by-rank where `by_rank` is set.
void AddJobInputs(CLI::App* command, JobArgs* args, const std::string& what, bool by_rank);
// --ranks 0-3,7 into *ranks, parsed as the command line is read (job::RankSelection::Parse, whose
// message names the option).
CLI::Option* AddRanksOption(CLI::App* command, job::RankSelection* ranks, const std::string& help);

// The inputs told apart by one look (job::SniffInputs): `single` when the command keeps its
// single-trace path (one file, no --ranks, no --by-rank), its file open for the load.
job::SniffedInputs SniffJobArgs(const JobArgs& args);

// The job the command reads: its inputs, --ranks, --jobs, the load request of its traces and
// --link; the command then says what each rank's summary keeps (job/run_job.h). `opened`: the
// summary file SniffJobArgs opened, read rather than opened again.
job::JobRequest JobRequestFor(const JobArgs& args, const CommonOptions& options,
                              std::shared_ptr<InputFile> opened = nullptr);
// RunJob, with its notes printed and its inputs known to Emit (which refuses to overwrite one).
Result<job::JobRun> RunJobForCommand(const job::JobRequest& request, Context& ctx);
// The request of a command that reads one or two FILEs, each a trace or a job (diff, check):
// --ranks, the load request (with a progress meter for a single trace) and --link.
job::JobRequest SidesRequestFor(const job::RankSelection& ranks, const CommonOptions& options,
                                Context& ctx);

// A library call's result (a run that names the `paths` it read), its notes printed and its
// inputs known to Emit.
template <typename Run>
Result<Run> WithNotes(Result<Run> run, const std::vector<job::LoadNote>& notes, Context& ctx) {
  PrintNotes(notes, ctx);
  if (run.ok()) ctx.inputs.insert(ctx.inputs.end(), run->paths.begin(), run->paths.end());
  return run;
}

}  // namespace profana::app
