// How `--help` reads: positionals of several values as "FILE...", the input formats from the
// importer table under every command, and `profana help [COMMAND]`.
#pragma once

#include "CLI/CLI.hpp"
#include "profana/commands/commands.h"

namespace profana::app {

// The help formatter; set on the app before the commands are added (they inherit it).
std::shared_ptr<CLI::Formatter> MakeHelpFormatter();

// `profana help [COMMAND]`: prints what `profana COMMAND --help` (or `profana --help`) prints.
void RegisterHelpCommand(CLI::App& app, Context& ctx);

// Adds the input formats (importers/importer.h's table) to the footer of `profana --help` and of
// every command that reads a trace. Call after every command is registered.
void AddFormatsToHelp(CLI::App& app);

}  // namespace profana::app
