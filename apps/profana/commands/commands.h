// What every subcommand shares: the common options, loading a trace with its warnings, writing
// the result to stdout or -o FILE, and the mapping from Status to exit codes. One file per
// subcommand registers itself with Register<Name>Command.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "profana/base/status.h"
#include "profana/model/function_event_index.h"
#include "profana/model/trace.h"
#include "spdlog/spdlog.h"

namespace profana::app {

struct Context {
  std::string* out;
  std::string* err;
  std::function<int()> run;             // set by the chosen subcommand's callback
  std::shared_ptr<spdlog::logger> log;  // --verbose diagnostics, appended to *err; off by default
};

struct CommonOptions {
  std::string output;  // -o FILE; empty = stdout
  std::string format = "text";
  bool strict = false;
  bool verbose = false;
  bool quiet = false;
  std::string max_memory;  // --max-memory SIZE; empty = the default (see base/memory_limit.h)
  // Filters, applied by LoadForCommand before any analysis (passes/trace_filter.h).
  std::string steps;
  bool skip_first_step = false;
  std::string window;
  std::vector<std::string> threads;
  std::vector<int32_t> devices;
  std::vector<std::string> streams;
  std::string name;
  std::string exclude;
};

// The process's peak resident memory so far, in MB, for --verbose phase lines.
double PeakRssMb();

// Milliseconds since construction or the last Lap(), for --verbose phase timings.
class Stopwatch {
 public:
  double Lap() {
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

constexpr int kExitOk = 0;
constexpr int kExitCheckFailed = 1;
constexpr int kExitBadInput = 2;

void AddCommonOptions(CLI::App* command, CommonOptions* options,
                      const std::vector<std::string>& formats);
// Adds only the filter options (for commands that load more than one trace with one set of
// filters).
void AddFilterOptions(CLI::App* command, CommonOptions* options);
// Loads a trace and applies the filters; prints one warning line for its diagnostics unless
// --quiet; with --strict, error-severity diagnostics fail the load. With `function_index`, a
// native file's function event index comes back there (for BuildFunctionEvents); a filter drops
// it, since it describes every event of the file.
Result<Trace> LoadForCommand(const std::string& path, const CommonOptions& options, Context& ctx,
                             std::optional<FunctionEventIndex>* function_index = nullptr);
// Writes text to -o FILE or stdout. Returns an exit code.
int Emit(std::string text, const CommonOptions& options, Context& ctx);
// Colours for text written to standard output: "always", "never", or "auto" (a terminal, and
// NO_COLOR unset). Never when writing to -o FILE.
bool UseColor(const std::string& mode, const CommonOptions& options);
// Prints "profana: <message>" and returns the exit code for the status.
int Fail(const Status& status, Context& ctx);

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

}  // namespace profana::app
