// What every subcommand shares: the common options, parsed once into run::CommonOptions, and
// the CLI's side of a run (CliSession: notes as log lines, the output to stdout or -o FILE). One
// file per subcommand registers its options with Register<Name>Command and calls its run
// (lib/profana/run/<name>.h), which returns a Status that only RunCli turns into a message and an
// exit code.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "CLI/CLI.hpp"
#include "profana/base/output_sink.h"
#include "profana/base/row_limit.h"
#include "profana/base/status.h"
#include "profana/commands/log.h"
#include "profana/passes/trace_filter.h"
#include "profana/reporters/output_format.h"
#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::app {

using report::OutputFormat;
using run::CommonOptions;

struct Context {
  std::string* out;
  Log log;                      // warnings and --verbose diagnostics, appended to standard error
  std::function<Status()> run;  // set by the chosen subcommand's callback
  // The chosen subcommand's --max-memory, set with `run`; unset: the default.
  std::optional<uint64_t> max_memory;
  // The files this command reads (traces, summaries, a budget): Emit refuses to write over one.
  std::vector<std::string> inputs;
  // Where EmitStreamed writes standard output as it is made (main() passes stdout); null: *out.
  OutputSink* stdout_stream = nullptr;
  // Standard error when it is a terminal (main() decides): slow loads show their progress there.
  // Null: no progress line (a pipe, a file, the tests).
  OutputSink* progress_terminal = nullptr;
};

// -o, --format (one of `formats`, the first the default), --strict, -v, -q, --max-memory and
// the filters.
void AddCommonOptions(CLI::App* command, CommonOptions* options,
                      const std::vector<OutputFormat>& formats);
// The same without the filters, for a command that reads no trace (merge reads summaries).
void AddOutputOptions(CLI::App* command, CommonOptions* options,
                      const std::vector<OutputFormat>& formats);
// --max-memory SIZE alone (convert takes no --format or filters).
void AddMaxMemoryOption(CLI::App* command, CommonOptions* options);
// Adds only the filter options (for commands that load more than one trace with one set of
// filters).
void AddFilterOptions(CLI::App* command, CommonOptions* options);

// -n,--row-limit N: how many rows (PyTorch's table(row_limit=N)), one name in every command, its
// default DefaultRowLimit(kind) (base/row_limit.h) and named in the help; `min` is the smallest N
// accepted (INT64_MIN: any, a negative N meaning all). --top and --limit are hidden aliases, so
// command lines written with them keep working. Returns the option.
CLI::Option* AddRowLimitOption(CLI::App* command, int64_t* rows, RowKind kind, int64_t min,
                               const std::string& help);

// --link auto|pytorch|enclosing: how device work finds its op (commands that credit kernels).
void AddLinkOption(CLI::App* command, CommonOptions* options);

// A command's run as the CLI sees it (run/session.h): notes become log lines (warnings unless
// -q, diagnostics with -v), progress goes to the terminal, the output to stdout or -o FILE, which
// may not be one of the files read.
class CliSession : public run::Session {
 public:
  CliSession(Context& ctx, const CommonOptions& options) : ctx_(ctx), options_(options) {}
  void Note(job::LoadNote note) override;
  bool verbose() const override { return ctx_.log.verbose(); }
  void Read(const std::string& path) override { ctx_.inputs.push_back(path); }
  job::ProgressFor Progress() const override;
  // A terminal on standard output, no -o FILE, and NO_COLOR unset.
  bool ColorsWanted() const override;
  // Text to -o FILE (replaced whole, base/output_file.h) or stdout; text and markdown results
  // pass through MakePrintable first.
  Status Emit(std::string text) override;
  Status EmitFile(const std::string& path, std::string text) override;
  // Chunks straight to -o FILE or to standard output, so a report of hundreds of MB is never
  // held whole.
  Status EmitStreamed(const WriteOutput& write) override;
  Status RefuseToOverwriteInput() const override;

 private:
  Context& ctx_;
  const CommonOptions& options_;
};

// Adds the subcommand `name`, whose options are read into *args: when it is chosen, `run` is
// what RunCli runs, with the log set by -v and -q, and its --max-memory the run's.
template <typename Args>
CLI::App* AddCommand(CLI::App& app, Context& ctx, std::shared_ptr<Args> args,
                     Status (*run)(const Args&, run::Session&), const std::string& name,
                     const std::string& description) {
  CLI::App* command = app.add_subcommand(name, description);
  command->callback([args, &ctx, run] {
    ctx.max_memory = args->common.max_memory;
    ctx.run = [args, &ctx, run] {
      ctx.log.set_verbose(args->common.verbose);
      ctx.log.set_quiet(args->common.quiet);
      CliSession session(ctx, args->common);
      return run(*args, session);
    };
  });
  return command;
}

void RegisterTableCommand(CLI::App& app, Context& ctx);
void RegisterInfoCommand(CLI::App& app, Context& ctx);
void RegisterStacksCommand(CLI::App& app, Context& ctx);
void RegisterTreeCommand(CLI::App& app, Context& ctx);
void RegisterOptimizableCommand(CLI::App& app, Context& ctx);
void RegisterQueueCommand(CLI::App& app, Context& ctx);
void RegisterIdleCommand(CLI::App& app, Context& ctx);
void RegisterConvertCommand(CLI::App& app, Context& ctx);
void RegisterMemoryCommand(CLI::App& app, Context& ctx);
void RegisterDiffCommand(CLI::App& app, Context& ctx);
void RegisterCheckCommand(CLI::App& app, Context& ctx);
void RegisterStepsCommand(CLI::App& app, Context& ctx);
void RegisterKernelsCommand(CLI::App& app, Context& ctx);
void RegisterCollectivesCommand(CLI::App& app, Context& ctx);
void RegisterSummarizeCommand(CLI::App& app, Context& ctx);
void RegisterMergeCommand(CLI::App& app, Context& ctx);
void RegisterCriticalPathCommand(CLI::App& app, Context& ctx);
void RegisterAdviseCommand(CLI::App& app, Context& ctx);
void RegisterSqlCommand(CLI::App& app, Context& ctx);

}  // namespace profana::app
