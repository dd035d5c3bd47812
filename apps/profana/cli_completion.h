// `profana completion bash|zsh`: shell completion scripts generated from the commands and options
// registered with CLI11, so that they never fall behind the command line. The install rules
// (cmake/install.cmake) write them to share/bash-completion/completions/profana and
// share/zsh/vendor-completions/_profana.
#pragma once

#include <string>

#include "CLI/CLI.hpp"
#include "profana/commands/commands.h"

namespace profana::app {

std::string BashCompletion(const CLI::App& app);
std::string ZshCompletion(const CLI::App& app);

// Register last: the scripts describe every command registered before the line is run.
void RegisterCompletionCommand(CLI::App& app, Context& ctx);

}  // namespace profana::app
