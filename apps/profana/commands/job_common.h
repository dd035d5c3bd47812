// The options of the commands that read a whole job: the inputs (FILE, DIR or GLOB, several),
// --ranks, --jobs and --by-rank, into run::JobArgs (lib/profana/run/command_options.h).
#pragma once

#include <string>

#include "profana/commands/commands.h"

namespace profana::app {

using run::JobArgs;

// Adds the positional inputs (required) and --ranks; --by-rank where `by_rank` is set.
void AddJobInputs(CLI::App* command, JobArgs* args, const std::string& what, bool by_rank);
// --ranks 0-3,7 into *ranks, parsed as the command line is read (job::RankSelection::Parse, whose
// message names the option).
CLI::Option* AddRanksOption(CLI::App* command, job::RankSelection* ranks, const std::string& help);

}  // namespace profana::app
