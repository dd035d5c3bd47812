#include "profana/cli.h"

#include <exception>
#include <new>
#include <string_view>
#include <system_error>

#include "fmt/format.h"
#include "profana/base/memory_limit.h"
#include "profana/base/terminal_text.h"
#include "profana/cli_args.h"
#include "profana/cli_completion.h"
#include "profana/cli_help.h"
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/importers/importer.h"
#include "profana/version.h"

namespace profana::app {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitCheckFailed = 1;
constexpr int kExitBadInput = 2;  // bad input or usage

// The one place a command's outcome becomes a message and an exit code.
// Messages may quote names from the input (a file name, a trace's text): each is one line, with
// control characters, a newline too, shown and not sent.
int Finish(const Status& status, std::string* err) {
  if (status.ok()) return kExitOk;
  std::string message = Printable(status.message());
  if (status.code() == ErrorCode::kCheckFailed) {
    err->append(fmt::format("profana: check failed: {}\n", message));
    return kExitCheckFailed;
  }
  err->append(fmt::format("profana: error: {}\n", message));
  return kExitBadInput;
}

}  // namespace

int RunCli(const std::vector<std::string>& args, std::string* out, std::string* err,
           OutputSink* stdout_stream, OutputSink* progress_terminal,
           void (*cap_memory)(uint64_t bytes)) {
  Context ctx{out, Log(err), nullptr, std::nullopt, {}, stdout_stream, progress_terminal};
  CLI::App app("profana: offline analysis of PyTorch profiler traces (" + FormatsSummary() +
                   "; plain or gzip)",
               "profana");
  app.formatter(MakeHelpFormatter());
  app.require_subcommand(1);
  app.set_version_flag("--version", VersionString());
  AddLeadingCommonOptions(app);
  RegisterTableCommand(app, ctx);
  RegisterStacksCommand(app, ctx);
  RegisterTreeCommand(app, ctx);
  RegisterOptimizableCommand(app, ctx);
  RegisterQueueCommand(app, ctx);
  RegisterIdleCommand(app, ctx);
  RegisterStepsCommand(app, ctx);
  RegisterKernelsCommand(app, ctx);
  RegisterCollectivesCommand(app, ctx);
  RegisterCriticalPathCommand(app, ctx);
  RegisterAdviseCommand(app, ctx);
  RegisterSummarizeCommand(app, ctx);
  RegisterMergeCommand(app, ctx);
  RegisterMemoryCommand(app, ctx);
  RegisterInfoCommand(app, ctx);
  RegisterConvertCommand(app, ctx);
  RegisterSqlCommand(app, ctx);
  RegisterDiffCommand(app, ctx);
  RegisterCheckCommand(app, ctx);
  RegisterHelpCommand(app, ctx);
  RegisterCompletionCommand(app, ctx);
  AddFormatsToHelp(app);
  Result<std::vector<std::string>> words = NormalizeArgs(app, args);
  if (!words.ok()) {
    err->append(fmt::format("profana: error: {}\nRun 'profana --help' for the list of commands.\n",
                            Printable(words.status().message())));
    return kExitBadInput;
  }
  try {
    // CLI11 wants argv order reversed for its vector overload.
    std::vector<std::string> reversed(words->rbegin(), words->rend());
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
  } catch (const BadOptionValue& e) {
    // The message says what the option expects; no need to point at --help.
    return Finish(Status(ErrorCode::kInvalidArgument, e.what()), err);
  } catch (const CLI::ExtrasError& e) {
    err->append(fmt::format("profana: error: {}\n", UnexpectedArgumentMessage(app, e.what())));
    return kExitBadInput;
  } catch (const CLI::ParseError& e) {
    // A subcommand's own --help arrives here as well.
    if (e.get_exit_code() == 0) {
      out->append(e.what());
      return kExitOk;
    }
    err->append(
        fmt::format("profana: error: {}\nRun 'profana --help' or 'profana COMMAND --help'.\n",
                    Printable(e.what() + DashFileHint(*words))));
    return kExitBadInput;
  }
  if (!ctx.run) return kExitBadInput;
  if (cap_memory) cap_memory(ctx.max_memory.value_or(DefaultMaxMemory()));
  try {
    Status status = ctx.run();
    constexpr std::string_view kDirectory = ": is a directory";
    const std::string& message = status.message();
    if (message.size() >= kDirectory.size() &&
        message.compare(message.size() - kDirectory.size(), kDirectory.size(), kDirectory) == 0)
      status = Status(status.code(), message + DirectoryHint(app));
    return Finish(status, err);
  } catch (const std::bad_alloc&) {
    return Finish(Status(ErrorCode::kInternal, "out of memory"), err);
  } catch (const std::exception& e) {
    // A thread that cannot start under a data limit lacks memory for its stack: said as the
    // memory cap says an allocation past it (main()'s handler, which ends the process).
    auto* system = dynamic_cast<const std::system_error*>(&e);
    std::new_handler on_memory_cap = std::get_new_handler();
    if (system && system->code() == std::errc::resource_unavailable_try_again && on_memory_cap)
      on_memory_cap();
    err->append(fmt::format("profana: internal error: {}\n", e.what()));
    return kExitBadInput;
  }
}

}  // namespace profana::app
