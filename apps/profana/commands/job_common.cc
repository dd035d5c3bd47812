#include "profana/commands/job_common.h"

#include "profana/commands/option_checks.h"

namespace profana::app {

void AddJobInputs(CLI::App* command, JobArgs* a, const std::string& what, bool by_rank) {
  command
      ->add_option("FILE", a->inputs,
                   what +
                       ": trace files, directories (the traces inside, sorted) or globs; one "
                       "rank each; - reads standard input")
      ->required();
  AddRanksOption(command, &a->ranks,
                 "Only these ranks of the inputs: 0-3,7 (a rank is distributedInfo.rank, else a "
                 "number in the file name, else the position)");
  command
      ->add_option("--jobs", a->jobs,
                   "Traces read at once (each held until summarised; default: the cores this "
                   "process may use)")
      ->check(WholeNumber<int>("--jobs", 0));
  if (by_rank)
    command->add_flag("--by-rank", a->by_rank, "One block per rank instead of the ranks summed");
}

CLI::Option* AddRanksOption(CLI::App* command, job::RankSelection* ranks, const std::string& help) {
  return command->add_option_function<std::string>(
      "--ranks",
      [ranks](const std::string& text) {
        if (text.empty()) return;  // --ranks "" keeps every rank, as no --ranks does
        Result<job::RankSelection> parsed = job::RankSelection::Parse(text);
        if (!parsed.ok()) throw BadOptionValue(parsed.status().message());
        *ranks = std::move(*parsed);
      },
      help);
}

}  // namespace profana::app
