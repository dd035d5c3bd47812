// What every subcommand shares: the common options, loading a trace with its warnings, writing
// the result to stdout or -o FILE. One file per subcommand registers itself with
// Register<Name>Command; each is load -> passes -> reporter -> Emit and returns a Status, which
// only RunCli turns into a message and an exit code.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "CLI/CLI.hpp"
#include "profana/base/input_name.h"
#include "profana/base/output_sink.h"
#include "profana/base/row_limit.h"
#include "profana/base/status.h"
#include "profana/base/stopwatch.h"
#include "profana/commands/log.h"
#include "profana/job/load_input.h"
#include "profana/model/function_event_index.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"
#include "profana/passes/trace_filter.h"
#include "profana/reporters/output_format.h"

namespace profana::app {

using report::OutputFormat;

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

struct CommonOptions {
  std::string output;  // -o FILE; empty = stdout
  OutputFormat format = OutputFormat::kText;
  bool strict = false;
  bool verbose = false;
  bool quiet = false;
  std::optional<uint64_t> max_memory;  // --max-memory; unset = the default (base/memory_limit.h)
  // Filters, applied by LoadForCommand before any analysis (passes/trace_filter.h).
  std::string step_marker;     // --step-marker REGEX: these ranges are the steps (step_marker.h)
  passes::TraceFilter filter;  // --steps, --window, --thread, --device, ... parsed
  passes::LinkRule link = passes::LinkRule::kAuto;  // --link, for commands that credit kernels
  // Written byte for byte (convert's files). Otherwise text and markdown results show control
  // characters visibly (reporters/terminal_text.h), whatever reporter wrote them.
  bool data_output = false;
  // Whether the command reads the trace's flow events (info shows them, convert writes them).
  // No analysis does: for the other commands LoadForCommand keeps only their count
  // (UnreadColumns::flows).
  bool keeps_flows = false;
  // Event columns the command never reads: the load keeps each as one value (UnreadColumns).
  UnreadColumns unread;
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

// job::BuildTraceEvents under --link, its note printed.
Result<passes::FunctionEventList> BuildEventsForCommand(
    const Trace& trace, const std::optional<FunctionEventIndex>& index, const std::string& input,
    const CommonOptions& options, Context& ctx, bool counts = false);

// Makes `run` what RunCli runs when `command` is chosen, with the log set by -v and -q, and its
// --max-memory the run's.
template <typename Args>
void SetRun(CLI::App* command, Context& ctx, std::shared_ptr<Args> args,
            Status (*run)(const Args&, Context&)) {
  command->callback([args, &ctx, run] {
    ctx.max_memory = args->common.max_memory;
    ctx.run = [args, &ctx, run] {
      ctx.log.set_verbose(args->common.verbose);
      ctx.log.set_quiet(args->common.quiet);
      return run(*args, ctx);
    };
  });
}

// How LoadForCommand speaks of a trace's damaged events.
enum class DiagnosticWarning { kWarn, kSilent };

// The load request every trace of the command gets: the parsed filters, --step-marker,
// --strict, --max-memory and the columns the command never reads.
job::LoadRequest LoadRequestFor(const CommonOptions& options,
                                DiagnosticWarning warning = DiagnosticWarning::kWarn);
// The library's notes of a load or a job as log lines: warnings always (unless -q), the rest
// with -v.
void PrintNotes(const std::vector<job::LoadNote>& notes, Context& ctx);
// A progress meter on the terminal for each slow load (job::LoadRequest::progress); none with -q
// or without a terminal.
job::ProgressFor ShowLoadProgress(const CommonOptions& options, Context& ctx);
// LoadRequestFor with ShowLoadProgress: for the library calls that load traces one at a time.
job::LoadRequest LoadRequestWithProgress(const CommonOptions& options, Context& ctx);
// job::LoadInput of one trace with the command's request and a progress meter, its notes
// printed (kSilent: no warning for its diagnostics), its path added to ctx.inputs. With
// `function_index`, a native file's function event index comes back there.
Result<Trace> LoadForCommand(const std::string& path, const CommonOptions& options, Context& ctx,
                             std::optional<FunctionEventIndex>* function_index = nullptr,
                             DiagnosticWarning warning = DiagnosticWarning::kWarn);
// The same for the one input job::SingleTraceInput found, read from the file it opened.
Result<Trace> LoadForCommand(const job::JobInput& input, const CommonOptions& options, Context& ctx,
                             std::optional<FunctionEventIndex>* function_index = nullptr,
                             DiagnosticWarning warning = DiagnosticWarning::kWarn);
// The whole of a small file an option names (a budget), as text. Read as trace inputs are:
// --max-memory bounds it, and `could_start` (if given) refuses it after its first bytes
// (base/input_buffer.h).
Result<std::string> ReadTextFile(const std::string& path, const CommonOptions& options,
                                 bool (*could_start)(std::string_view) = nullptr);
// Refuses -o FILE when it is one of ctx.inputs (Emit and EmitStreamed ask this first).
Status RefuseToOverwriteInput(const CommonOptions& options, const Context& ctx);
// Writes text to -o FILE (replaced whole, base/output_file.h) or stdout. Refuses to write over
// one of ctx.inputs. Text and markdown results pass through MakePrintable first.
Status Emit(std::string text, const CommonOptions& options, Context& ctx);
// Emit for an output written as it is made: `write` hands its text to the sink in chunks, which
// go straight to -o FILE or to standard output, so a report of hundreds of MB is never held
// whole.
Status EmitStreamed(const CommonOptions& options, Context& ctx,
                    const std::function<Status(OutputSink*)>& write);
// Colours for text written to standard output: "always", "never", or "auto" (a terminal, and
// NO_COLOR unset; never when writing to -o FILE).
bool UseColor(const std::string& mode, const CommonOptions& options);
// Warns that a GPU analysis has nothing to look at: no kernel, memcpy or memset.
void WarnWithoutDeviceActivity(const Trace& trace, const std::string& path, Context& ctx);

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
