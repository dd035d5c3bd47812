#include "profana/cli.h"

#include <exception>
#include <sstream>

#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/importers/importer.h"
#include "spdlog/sinks/ostream_sink.h"

namespace profana::app {

int RunCli(const std::vector<std::string>& args, std::string* out, std::string* err) {
  // --verbose messages go through spdlog into a buffer that ends up on standard error.
  std::ostringstream log_text;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_st>(log_text);
  sink->set_pattern("profana: %v");
  auto logger = std::make_shared<spdlog::logger>("profana", sink);
  logger->set_level(spdlog::level::off);
  Context ctx{out, err, nullptr, logger};
  struct FlushLog {
    std::ostringstream& text;
    std::string* err;
    ~FlushLog() { err->insert(0, text.str()); }
  } flush_log{log_text, err};
  CLI::App app("profana: offline analysis of PyTorch profiler traces (" + FormatsSummary() +
                   "; plain or gzip)",
               "profana");
  app.require_subcommand(1);
  app.set_version_flag("--version", "profana 0.1.0");
  RegisterTableCommand(app, ctx);
  RegisterStacksCommand(app, ctx);
  RegisterTreeCommand(app, ctx);
  RegisterOptimizableCommand(app, ctx);
  RegisterQueueCommand(app, ctx);
  RegisterIdleCommand(app, ctx);
  RegisterMemoryCommand(app, ctx);
  RegisterInfoCommand(app, ctx);
  RegisterConvertCommand(app, ctx);
  RegisterDiffCommand(app, ctx);
  RegisterCheckCommand(app, ctx);
  try {
    // CLI11 wants argv order reversed for its vector overload.
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    out->append(app.help());
    return kExitOk;
  } catch (const CLI::CallForAllHelp& e) {
    out->append(app.help("", CLI::AppFormatMode::All));
    return kExitOk;
  } catch (const CLI::CallForVersion& e) {
    out->append(e.what());
    out->append("\n");
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    // A subcommand's own --help arrives here as well.
    if (e.get_exit_code() == 0) {
      out->append(e.what());
      return kExitOk;
    }
    err->append(fmt::format(
        "profana: error: {}\nRun 'profana --help' or 'profana COMMAND --help'.\n", e.what()));
    return kExitBadInput;
  }
  if (!ctx.run) return kExitBadInput;
  try {
    return ctx.run();
  } catch (const std::bad_alloc&) {
    err->append("profana: error: out of memory\n");
    return kExitBadInput;
  } catch (const std::exception& e) {
    err->append(fmt::format("profana: internal error: {}\n", e.what()));
    return kExitBadInput;
  }
}

}  // namespace profana::app
