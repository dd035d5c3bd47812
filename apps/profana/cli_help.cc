#include "profana/cli_help.h"

#include "fmt/format.h"
#include "profana/cli_args.h"
#include "profana/importers/importer.h"

namespace profana::app {
namespace {

class HelpFormatter : public CLI::Formatter {
 public:
  // CLI11 writes a positional of one to two values as "FILE(1x)"; "FILE..." reads as "one or
  // more", which is what such a positional takes.
  std::string make_option_usage(const CLI::Option* opt) const override {
    std::string usage = make_option_name(opt, true);
    if (opt->get_expected_max() > 1) usage += "...";
    return opt->get_required() ? usage : "[" + usage + "]";
  }
};

// A command that loads traces: it has the trace filters, or a FILE to read (merge has neither:
// it reads SUMMARY files).
bool ReadsTraces(const CLI::App& command) {
  if (command.get_option_no_throw("--window") != nullptr) return true;
  for (const CLI::Option* opt : command.get_options())
    if (opt->get_positional() && opt->get_name(true, false) == "FILE") return true;
  return false;
}

std::string AppendFooter(const std::string& footer, const std::string& text) {
  return footer.empty() ? text : footer + "\n\n" + text;
}

}  // namespace

std::shared_ptr<CLI::Formatter> MakeHelpFormatter() { return std::make_shared<HelpFormatter>(); }

void RegisterHelpCommand(CLI::App& app, Context& ctx) {
  auto topic = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "help", "Print the help of COMMAND (as profana COMMAND --help), or this list");
  cmd->add_option("COMMAND", *topic, "A command, e.g. table");
  cmd->callback([&app, topic, &ctx] {
    ctx.run = [&app, topic, &ctx] {
      if (topic->empty()) {
        // app.help() would describe the selected command, `help` itself.
        ctx.out->append(
            app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal));
        return Status::Ok();
      }
      const CLI::App* command = nullptr;
      for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        if (sub->get_name() == *topic) command = sub;
      if (command == nullptr) {
        return Status(ErrorCode::kInvalidArgument,
                      fmt::format("{}\nRun 'profana --help' for the list of commands.",
                                  UnknownCommandMessage(app, *topic)));
      }
      ctx.out->append(command->help(app.get_name()));
      return Status::Ok();
    };
  });
}

void AddFormatsToHelp(CLI::App& app) {
  std::string formats = "Input formats, recognised by content (gzip-compressed or not):";
  for (const ImporterInfo& info : Importers()) formats += fmt::format("\n  {}", info.description);
  formats += "\n`-` as FILE reads standard input.";
  app.footer(AppendFooter(app.get_footer(), formats));
  std::string line = fmt::format(
      "Input formats: {}, recognised by content, plain or gzip; - as a file reads standard input.",
      FormatsSummary());
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; }))
    if (ReadsTraces(*command)) command->footer(AppendFooter(command->get_footer(), line));
}

}  // namespace profana::app
