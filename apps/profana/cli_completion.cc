#include "profana/cli_completion.h"

#include <memory>
#include <string_view>
#include <vector>

#include "fmt/format.h"
#include "profana/commands/option_checks.h"

namespace profana::app {
namespace {

// What a completion needs to know of one option or positional.
struct Spec {
  std::vector<std::string> names;  // "-o", "--output"; a positional: its name
  std::string help;
  bool takes_value = false;
  bool repeatable = false;
  bool files = false;               // its value is a file name (CLI11's default type, TEXT)
  std::vector<std::string> values;  // a fixed set (CLI::IsMember): "text", "json", ...
};

Spec Describe(const CLI::Option& opt) {
  Spec s;
  if (opt.get_positional() && opt.get_snames().empty() && opt.get_lnames().empty()) {
    s.names.push_back(opt.get_name(true, false));
  } else {
    for (const std::string& n : opt.get_snames()) s.names.push_back("-" + n);
    for (const std::string& n : opt.get_lnames()) s.names.push_back("--" + n);
  }
  s.help = opt.get_description();
  s.takes_value = opt.get_expected_max() != 0;  // a flag expects no value
  s.repeatable = opt.get_expected_max() > 1;
  // CLI11 appends each validator's description to the type name: "TEXT:{text,json,csv}".
  std::string type = opt.get_type_name();
  size_t open = type.find('{');
  size_t close = type.find('}', open);
  if (open != std::string::npos && close != std::string::npos) {
    std::string_view list(type.data() + open + 1, close - open - 1);
    while (!list.empty()) {
      size_t comma = list.find(',');
      s.values.emplace_back(list.substr(0, comma));
      list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
  }
  // Names the library parses (option_checks.h, Named): the validator's name lists them. CLI11
  // gives a validator only from a non-const option, by index, throwing past the last.
  auto& named = const_cast<CLI::Option&>(opt);
  for (int i = 0; s.values.empty(); ++i) {
    const CLI::Validator* v = nullptr;
    try {
      v = named.get_validator(i);
    } catch (const CLI::OptionNotFound&) {
      break;
    }
    std::string_view name = v->get_name();
    if (name.substr(0, std::string_view(kNamedValues).size()) != kNamedValues) continue;
    name.remove_prefix(std::string_view(kNamedValues).size());
    while (!name.empty()) {
      size_t comma = name.find(',');
      s.values.emplace_back(name.substr(0, comma));
      name = comma == std::string_view::npos ? std::string_view() : name.substr(comma + 1);
    }
  }
  // Numbers, sizes and formats (INT, FLOAT, SIZE, ...) have nothing to offer; strings may be files.
  s.files =
      s.values.empty() && (type.compare(0, 4, "TEXT") == 0 || type.compare(0, 4, "FILE") == 0);
  return s;
}

std::vector<Spec> Options(const CLI::App& app, bool positional) {
  std::vector<Spec> specs;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_positional() != positional) continue;
    if (!positional && opt->get_group().empty()) continue;  // hidden
    specs.push_back(Describe(*opt));
  }
  return specs;
}

std::vector<const CLI::App*> Commands(const CLI::App& app) {
  std::vector<const CLI::App*> commands;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (!sub->get_name().empty() && !sub->get_group().empty()) commands.push_back(sub);
  return commands;
}

std::string Join(const std::vector<std::string>& words, std::string_view separator) {
  std::string out;
  for (const std::string& w : words) out += fmt::format("{}{}", out.empty() ? "" : separator, w);
  return out;
}

// The first clause of a help text, on one line, without the brackets zsh's specs are made of.
std::string ShortHelp(const std::string& help) {
  std::string out;
  for (char c : help) {
    if (c == '\n') break;
    if (c == '[' || c == '(') c = '(';
    if (c == ']' || c == ')') c = ')';
    if (c == '\\') continue;
    out += c;
  }
  size_t stop = out.find("; ");
  if (stop != std::string::npos) out.resize(stop);
  if (out.size() > 70) out = out.substr(0, 67) + "...";
  return out;
}

// The bash `case $prev in ... esac` arms that complete an option's value.
std::string BashValueArms(const std::vector<Spec>& options, const char* indent) {
  std::vector<std::string> files, numbers;
  std::string arms;
  for (const Spec& s : options) {
    if (!s.takes_value) continue;
    if (!s.values.empty())
      arms += fmt::format("{}{}) COMPREPLY=($(compgen -W \"{}\" -- \"$cur\")); return ;;\n", indent,
                          Join(s.names, "|"), Join(s.values, " "));
    else if (s.files)
      files.insert(files.end(), s.names.begin(), s.names.end());
    else
      numbers.insert(numbers.end(), s.names.begin(), s.names.end());
  }
  if (!numbers.empty()) arms += fmt::format("{}{}) return ;;\n", indent, Join(numbers, "|"));
  if (!files.empty())
    arms += fmt::format("{}{}) _profana_files; return ;;\n", indent, Join(files, "|"));
  return arms;
}

std::vector<std::string> AllNames(const std::vector<Spec>& options) {
  std::vector<std::string> names;
  for (const Spec& s : options) names.insert(names.end(), s.names.begin(), s.names.end());
  return names;
}

std::string ZshQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// One _arguments spec: '(-o --output)'{-o,--output}'[Write the result...]:FILE:_files'.
std::string ZshOptionSpec(const Spec& s) {
  std::string action;
  if (s.takes_value) {
    std::string what = s.names.back();
    while (!what.empty() && what[0] == '-') what.erase(0, 1);
    if (!s.values.empty())
      action = fmt::format(":{}:({})", what, Join(s.values, " "));
    else if (s.files)
      action = fmt::format(":{}:_files", what);
    else
      action = fmt::format(":{}: ", what);
  }
  std::string tail = ZshQuote(fmt::format("[{}]{}", ShortHelp(s.help), action));
  std::string repeat = s.repeatable ? "'*'" : "";
  if (s.names.size() == 1) return repeat + s.names[0] + tail;
  std::string exclusive = s.repeatable ? "" : ZshQuote("(" + Join(s.names, " ") + ")");
  return fmt::format("{}{}{{{}}}{}", exclusive, repeat, Join(s.names, ","), tail);
}

}  // namespace

std::string BashCompletion(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* command : Commands(app)) names.push_back(command->get_name());
  std::vector<Spec> top = Options(app, false);
  std::vector<std::string> top_values;
  for (const Spec& s : top)
    if (s.takes_value) top_values.insert(top_values.end(), s.names.begin(), s.names.end());

  std::string out = fmt::format(
      "# bash completion for profana; generated by `profana completion bash` from the options\n"
      "# profana itself registers. Install as share/bash-completion/completions/profana.\n"
      "_profana_files() {{\n"
      "  compopt -o filenames 2>/dev/null\n"
      "  COMPREPLY=($(compgen -f -- \"$cur\"))\n"
      "}}\n"
      "\n"
      "_profana() {{\n"
      "  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}\n"
      "  local commands=\"{}\"\n"
      "  local command=\"\" opts=\"\" i\n"
      "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      "    case ${{COMP_WORDS[i]}} in\n"
      "      {}) ((i++)) ;;\n"
      "      -*) ;;\n"
      "      *) command=${{COMP_WORDS[i]}}; break ;;\n"
      "    esac\n"
      "  done\n"
      "  case $command in\n"
      "    \"\")\n"
      "      case $prev in\n"
      "{}"
      "      esac\n"
      "      COMPREPLY=($(compgen -W \"$commands {}\" -- \"$cur\"))\n"
      "      return ;;\n",
      Join(names, " "), Join(top_values, "|"), BashValueArms(top, "        "),
      Join(AllNames(top), " "));
  for (const CLI::App* command : Commands(app)) {
    std::vector<Spec> options = Options(*command, false);
    std::vector<Spec> positionals = Options(*command, true);
    std::string words;  // what a positional offers: a fixed set, commands, or (default) files
    bool files = true;
    for (const Spec& p : positionals) {
      if (!p.values.empty()) words = Join(p.values, " "), files = false;
      if (p.names[0] == "COMMAND") words = "$commands", files = false;
    }
    if (positionals.empty()) files = false;
    out += fmt::format(
        "    {})\n"
        "      case $prev in\n"
        "{}"
        "      esac\n"
        "      opts=\"{}\"\n"
        "      if [[ $cur != -* ]]; then\n"
        "        {}\n"
        "        return\n"
        "      fi ;;\n",
        command->get_name(), BashValueArms(options, "        "), Join(AllNames(options), " "),
        files ? "_profana_files"
              : fmt::format("COMPREPLY=($(compgen -W \"{}\" -- \"$cur\"))", words));
  }
  out +=
      "  esac\n"
      "  COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
      "}\n"
      "complete -F _profana profana\n";
  return out;
}

std::string ZshCompletion(const CLI::App& app) {
  std::string out =
      "#compdef profana\n"
      "# zsh completion for profana; generated by `profana completion zsh` from the options\n"
      "# profana itself registers. Install as _profana in a folder of $fpath.\n"
      "\n"
      "_profana() {\n"
      "  local curcontext=$curcontext state line ret=1\n"
      "  _arguments -C \\\n";
  for (const Spec& s : Options(app, false)) out += "    " + ZshOptionSpec(s) + " \\\n";
  out +=
      "    '1:command:->command' \\\n"
      "    '*::argument:->argument' && ret=0\n"
      "  case $state in\n"
      "    command)\n"
      "      local -a commands\n"
      "      commands=(\n";
  for (const CLI::App* command : Commands(app))
    out += fmt::format("        {}\n",
                       ZshQuote(command->get_name() + ":" + ShortHelp(command->get_description())));
  out +=
      "      )\n"
      "      _describe -t commands 'profana command' commands && ret=0 ;;\n"
      "    argument)\n"
      "      case $line[1] in\n";
  std::vector<std::string> names;
  for (const CLI::App* command : Commands(app)) names.push_back(command->get_name());
  for (const CLI::App* command : Commands(app)) {
    std::vector<std::string> specs;
    for (const Spec& s : Options(*command, false)) specs.push_back(ZshOptionSpec(s));
    for (const Spec& p : Options(*command, true)) {
      if (!p.values.empty())
        specs.push_back(fmt::format("'1:{}:({})'", p.names[0], Join(p.values, " ")));
      else if (p.names[0] == "COMMAND")  // `profana help COMMAND`
        specs.push_back(fmt::format("'1:command:({})'", Join(names, " ")));
      else
        specs.push_back(fmt::format("'*:{}:_files'", p.names[0]));
    }
    out += fmt::format("        {})\n          _arguments \\\n            {} && ret=0 ;;\n",
                       command->get_name(), Join(specs, " \\\n            "));
  }
  out +=
      "      esac ;;\n"
      "  esac\n"
      "  return ret\n"
      "}\n"
      "\n"
      "_profana \"$@\"\n";
  return out;
}

void RegisterCompletionCommand(CLI::App& app, Context& ctx) {
  auto shell = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "completion", "Print a bash or zsh completion script (packages install them already)");
  cmd->add_option("SHELL", *shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh"}));
  cmd->footer(
      "Example: profana completion bash > ~/.local/share/bash-completion/completions/profana");
  cmd->callback([&app, shell, &ctx] {
    ctx.run = [&app, shell, &ctx] {
      ctx.out->append(*shell == "bash" ? BashCompletion(app) : ZshCompletion(app));
      return Status::Ok();
    };
  });
}

}  // namespace profana::app
