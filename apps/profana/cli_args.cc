#include "profana/cli_args.h"

#include <unistd.h>

#include <algorithm>
#include <string_view>

#include "fmt/format.h"
#include "profana/base/nearest_names.h"

namespace profana::app {
namespace {

struct CommonOption {
  std::string_view name;
  bool takes_value;
  const char* help;
};

// The same names as AddCommonOptions (commands/common.cc); the filters stay after the command.
constexpr CommonOption kCommonOptions[] = {
    {"-o", true, nullptr},
    {"--output", true, "Write the result to FILE instead of standard output"},
    {"--format", true, "Output format (each command lists its own)"},
    {"--max-memory", true, "The most memory the run may use, e.g. 16G (see COMMAND --help)"},
    {"--strict", false, "Treat damaged events (counted warnings) as fatal: exit 2"},
    {"-v", false, nullptr},
    {"--verbose", false, "Print diagnostics of the import on standard error"},
    {"-q", false, nullptr},
    {"--quiet", false, "Do not print warnings"},
};

const CommonOption* FindCommon(std::string_view name) {
  for (const CommonOption& o : kCommonOptions)
    if (o.name == name) return &o;
  return nullptr;
}

// How many words starting at args[i] make one common option (0: not a common option).
size_t CommonOptionWords(const std::vector<std::string>& args, size_t i) {
  std::string_view word = args[i];
  if (const CommonOption* o = FindCommon(word)) return o->takes_value ? 2 : 1;
  if (word.substr(0, 2) == "--") {  // --format=json
    size_t eq = word.find('=');
    const CommonOption* o = eq == std::string_view::npos ? nullptr : FindCommon(word.substr(0, eq));
    return o && o->takes_value ? 1 : 0;
  }
  if (word.size() > 2 && word[0] == '-') {
    if (word[1] == 'o') return 1;  // -oFILE
    // Bundled short flags: -qv.
    bool flags = word.find_first_not_of("qv", 1) == std::string_view::npos;
    return flags ? 1 : 0;
  }
  return 0;
}

std::vector<std::string> CommandNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (!sub->get_name().empty()) names.push_back(sub->get_name());
  return names;
}

}  // namespace

void AddLeadingCommonOptions(CLI::App& app) {
  // Bound to nothing: NormalizeArgs moves these words after the command, whose own options take
  // them. Here they serve --help, and a line without a command (which CLI11 then refuses).
  const char* group = "Common options (also accepted after COMMAND)";
  app.add_option("-o,--output", kCommonOptions[1].help)->type_name("FILE")->group(group);
  app.add_option("--format", kCommonOptions[2].help)->type_name("FORMAT")->group(group);
  app.add_option("--max-memory", kCommonOptions[3].help)->type_name("SIZE")->group(group);
  app.add_flag("--strict", kCommonOptions[4].help)->group(group);
  app.add_flag("-v,--verbose", kCommonOptions[6].help)->group(group);
  app.add_flag("-q,--quiet", kCommonOptions[8].help)->group(group);
}

std::string UnknownCommandMessage(const CLI::App& app, const std::string& word) {
  std::vector<std::string> names = CommandNames(app);
  std::string hint = DidYouMean(word, names);
  if (!hint.empty()) return fmt::format("unknown command \"{}\"; {}", word, hint);
  return fmt::format("unknown command \"{}\" (commands: {})", word, fmt::join(names, ", "));
}

std::string UnexpectedArgumentMessage(const CLI::App& app, const std::string& fallback) {
  std::vector<CLI::App*> parsed = app.get_subcommands();
  if (parsed.empty()) return fallback;
  const CLI::App& command = *parsed.back();
  std::vector<std::string> extra = command.remaining();
  if (extra.empty()) return fallback;
  const std::string& name = command.get_name();
  std::string word = extra.front();
  if (word.size() < 2 || word[0] != '-')
    return fmt::format("{} takes no argument \"{}\" here (see 'profana {} --help')", name, word,
                       name);
  word = word.substr(0, word.find('='));
  std::vector<std::string> options;
  for (const CLI::Option* o : command.get_options()) {
    for (const std::string& l : o->get_lnames()) options.push_back("--" + l);
    for (const std::string& s : o->get_snames()) options.push_back("-" + s);
  }
  std::string hint = DidYouMean(word, options);
  if (hint.empty()) hint = fmt::format("see 'profana {} --help'", name);
  return fmt::format("{} has no option \"{}\"; {}", name, word, hint);
}

std::string DirectoryHint(const CLI::App& app) {
  std::vector<CLI::App*> parsed = app.get_subcommands();
  std::vector<std::string> readers;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    for (const CLI::Option* o : command->get_options()) {
      if (o->get_positional() && o->get_description().find("director") != std::string::npos) {
        readers.push_back(command->get_name());
        break;
      }
    }
  }
  std::string name = parsed.empty() ? "this command" : parsed.back()->get_name();
  return fmt::format(" ({} reads trace files; a directory of rank traces is read by: {})", name,
                     fmt::join(readers, ", "));
}

Result<std::vector<std::string>> NormalizeArgs(const CLI::App& app,
                                               const std::vector<std::string>& args) {
  std::vector<std::string> before, hoisted;
  size_t i = 0;
  while (i < args.size()) {
    const std::string& word = args[i];
    if (word == "--" || word == "-" || word.empty() || word[0] != '-') break;
    size_t n = CommonOptionWords(args, i);
    if (n == 0 || i + n > args.size()) {  // --help, --version, a typo: CLI11 answers
      before.push_back(word);
      ++i;
      continue;
    }
    hoisted.insert(hoisted.end(), args.begin() + i, args.begin() + i + n);
    i += n;
  }
  if (i == args.size() || args[i] == "--" || args[i] == "-") {
    // No command: CLI11 says a command is required (or prints --help / --version).
    before.insert(before.end(), hoisted.begin(), hoisted.end());
    before.insert(before.end(), args.begin() + i, args.end());
    return before;
  }
  const std::string& command = args[i];
  std::vector<std::string> names = CommandNames(app);
  if (std::find(names.begin(), names.end(), command) == names.end())
    return Status(ErrorCode::kInvalidArgument, UnknownCommandMessage(app, command));
  before.push_back(command);
  before.insert(before.end(), hoisted.begin(), hoisted.end());
  before.insert(before.end(), args.begin() + i + 1, args.end());
  return before;
}

std::string DashFileHint(const std::vector<std::string>& args) {
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--") break;  // files from here on
    if (word.size() < 2 || word[0] != '-' || access(word.c_str(), F_OK) != 0) continue;
    return fmt::format(" ({} was read as an option; for the file, write -- {} or ./{})", word, word,
                       word);
  }
  return "";
}

}  // namespace profana::app
