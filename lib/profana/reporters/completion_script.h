// Shell completion scripts (`profana completion bash|zsh`) written from a description of the
// command line: its options and commands, each option's names, help, and what its value may be.
// apps/ describes the options it registers with CLI11, so the scripts never fall behind the
// command line; the install rules (cmake/install.cmake) write them to
// share/bash-completion/completions/profana and share/zsh/vendor-completions/_profana.
#pragma once

#include <string>
#include <vector>

namespace profana::report {

// One option or positional.
struct CompletionOption {
  std::vector<std::string> names;  // "-o", "--output"; a positional: its name
  std::string help;
  bool takes_value = false;
  bool repeatable = false;
  bool files = false;               // its value is a file name
  std::vector<std::string> values;  // a fixed set: "text", "json", ...
};

struct CompletionCommand {
  std::string name;
  std::string help;
  std::vector<CompletionOption> options;      // the visible ones
  std::vector<CompletionOption> positionals;  // "COMMAND" offers the command names
};

struct CompletionSpec {
  std::vector<CompletionOption> options;  // those given before the command
  std::vector<CompletionCommand> commands;
};

std::string BashCompletionScript(const CompletionSpec& spec);
std::string ZshCompletionScript(const CompletionSpec& spec);

}  // namespace profana::report
