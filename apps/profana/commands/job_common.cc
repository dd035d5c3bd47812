#include "profana/commands/job_common.h"

#include "profana/commands/option_checks.h"
#include "profana/job/job_inputs.h"

namespace profana::app {

void AddJobInputs(CLI::App* command, JobArgs* a, const std::string& what, bool by_rank) {
  command
      ->add_option("FILE", a->inputs,
                   what +
                       ": trace files, directories (the traces inside, sorted) or globs; one "
                       "rank each; - reads standard input")
      ->required();
  command->add_option("--ranks", a->ranks,
                      "Only these ranks of the inputs: 0-3,7 (a rank is distributedInfo.rank, else "
                      "a number in the file name, else the position)");
  command
      ->add_option("--jobs", a->jobs,
                   "Traces read at once (each held until summarised; default: the cores this "
                   "process may use)")
      ->check(WholeNumber<int>("--jobs", 0));
  if (by_rank)
    command->add_flag("--by-rank", a->by_rank, "One block per rank instead of the ranks summed");
}

job::SniffedInputs SniffJobArgs(const JobArgs& a) {
  if (!a.ranks.empty() || a.by_rank) return {};
  return job::SniffInputs(a.inputs);
}

Result<job::JobRequest> JobRequestFor(const JobArgs& a, const CommonOptions& options,
                                      std::shared_ptr<InputFile> opened) {
  job::JobRequest r;
  r.inputs = a.inputs;
  r.opened = std::move(opened);
  if (!a.ranks.empty()) {
    PROFANA_ASSIGN_OR_RETURN(r.ranks, job::RankSelection::Parse(a.ranks));
  }
  r.workers = static_cast<size_t>(a.jobs);
  r.load = LoadRequestFor(options);
  r.link = options.link;
  return r;
}

Result<job::JobRun> RunJobForCommand(const job::JobRequest& request, Context& ctx) {
  std::vector<job::LoadNote> notes;
  return WithNotes(job::RunJob(request, &notes), notes, ctx);
}

Result<job::JobRequest> SidesRequestFor(const std::string& ranks, const CommonOptions& options,
                                        Context& ctx) {
  PROFANA_ASSIGN_OR_RETURN(job::JobRequest request, JobRequestFor({{}, ranks}, options));
  request.load.progress = ShowLoadProgress(options, ctx);
  return request;
}

}  // namespace profana::app
