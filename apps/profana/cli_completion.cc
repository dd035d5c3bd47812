#include "profana/cli_completion.h"

#include <memory>
#include <string_view>
#include <vector>

#include "fmt/format.h"
#include "profana/commands/option_checks.h"
#include "profana/reporters/completion_script.h"

namespace profana::app {
namespace {

using report::CompletionOption;

// What a completion needs to know of one option or positional: a value from a fixed set
// (CLI::IsMember, or a name the library parses), or a file name (CLI11's default type, TEXT).
CompletionOption Describe(const CLI::Option& opt) {
  CompletionOption s;
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

std::vector<CompletionOption> Options(const CLI::App& app, bool positional) {
  std::vector<CompletionOption> specs;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_positional() != positional) continue;
    if (!positional && opt->get_group().empty()) continue;  // hidden
    specs.push_back(Describe(*opt));
  }
  return specs;
}

report::CompletionSpec DescribeCommandLine(const CLI::App& app) {
  report::CompletionSpec spec;
  spec.options = Options(app, false);
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (!sub->get_name().empty() && !sub->get_group().empty())  // not the hidden ones
      spec.commands.push_back(
          {sub->get_name(), sub->get_description(), Options(*sub, false), Options(*sub, true)});
  return spec;
}

}  // namespace

std::string BashCompletion(const CLI::App& app) {
  return report::BashCompletionScript(DescribeCommandLine(app));
}

std::string ZshCompletion(const CLI::App& app) {
  return report::ZshCompletionScript(DescribeCommandLine(app));
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
