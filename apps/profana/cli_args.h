// The command line's words before CLI11 parses them: the common options may come before the
// command (`profana -q table t.json` is `profana table -q t.json`), and a word in the command's
// place that names no command is an error that suggests the nearest one ("did you mean").
#pragma once

#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "profana/base/status.h"

namespace profana::app {

// The common options every trace command accepts (commands.h's AddCommonOptions), which may also
// be given before the command. Adds them to the top-level app so that `profana --help` lists them.
void AddLeadingCommonOptions(CLI::App& app);

// Moves the common options found before the command word to just after it and checks the command
// word. Returns the words for CLI11, or kInvalidArgument naming the unknown command and the
// nearest commands.
Result<std::vector<std::string>> NormalizeArgs(const CLI::App& app,
                                               const std::vector<std::string>& args);

// "unknown command "tabel"; did you mean "table"?" (or the list of commands when none is near).
std::string UnknownCommandMessage(const CLI::App& app, const std::string& word);

// After CLI11 refused an argument no option of the parsed command takes: `table has no option
// "--sorr"; did you mean "--sort"?` (or where to see its options), or for an extra positional
// word `table takes no argument "x.json" here`. `fallback` (CLI11's own message) where no command
// was parsed.
std::string UnexpectedArgumentMessage(const CLI::App& app, const std::string& fallback);

// For a command given a directory it cannot read: " (optimizable reads one trace file; a
// directory of rank traces is read by: table, stacks, ...)", the commands whose input help
// names directories.
std::string DirectoryHint(const CLI::App& app);

// For a line CLI11 refused: when a word after the command starts with '-' and names a file (a
// rank file "-rank0.json"), how to give it as a file: " (-rank0.json was read as an option; for
// the file, write -- -rank0.json or ./-rank0.json)". Empty when no word does.
std::string DashFileHint(const std::vector<std::string>& args);

}  // namespace profana::app
