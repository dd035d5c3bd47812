#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/importers/importer.h"
#include "profana/passes/trace_filter.h"

namespace profana::app {

void AddCommonOptions(CLI::App* command, CommonOptions* o,
                      const std::vector<std::string>& formats) {
  command->add_option("-o,--output", o->output,
                      "Write the result to FILE instead of standard output");
  command->add_option("--format", o->format, "Output format")
      ->check(CLI::IsMember(formats))
      ->default_str(formats.front());
  command->add_flag("--strict", o->strict,
                    "Treat damaged events (counted warnings) as fatal: exit 2");
  command->add_flag("-v,--verbose", o->verbose,
                    "Print diagnostics of the import on standard error");
  command->add_flag("-q,--quiet", o->quiet, "Do not print warnings");
  command->add_option(
      "--max-memory", o->max_memory,
      "Refuse inputs whose content (after gunzip) passes SIZE, e.g. 512M, 16G; 0 = no limit "
      "(default: half the physical memory)");
  AddFilterOptions(command, o);
}

void AddFilterOptions(CLI::App* command, CommonOptions* o) {
  const char* group = "Filters (applied before the analysis; README \"Filters\")";
  // A command's own option of the same name wins: `tree --thread` (which threads to print, the
  // same selection) and `memory --device cuda:0` (a memory device by name).
  auto has = [command](const char* name) { return command->get_option_no_throw(name) != nullptr; };
  command->add_option("--steps", o->steps, "Keep ProfilerStep#N windows: 3-5, 7 or 3-5,9")
      ->group(group);
  command
      ->add_flag("--skip-first-step", o->skip_first_step, "Drop the first ProfilerStep (warm-up)")
      ->group(group);
  command
      ->add_option("--window", o->window,
                   "Keep START:END, microseconds from the trace start (either may be empty)")
      ->group(group);
  if (!has("--thread"))
    command
        ->add_option("--thread", o->threads,
                     "Keep host events of this thread (tid or name); repeatable")
        ->group(group);
  if (!has("--device"))
    command
        ->add_option("--device", o->devices,
                     "Keep device activity of this device index; repeatable")
        ->group(group);
  command
      ->add_option("--stream", o->streams,
                   "Keep device activity of this stream (7 or \"stream 7\"); repeatable")
      ->group(group);
  command
      ->add_option("--name", o->name,
                   "Keep events whose name matches REGEX, with what they enclose and launch")
      ->group(group);
  command
      ->add_option("--exclude", o->exclude,
                   "Drop events whose name matches REGEX, with what they enclose and launch")
      ->group(group);
}

Result<passes::TraceFilter> FilterFromOptions(const CommonOptions& o) {
  passes::TraceFilter f;
  if (!o.steps.empty()) {
    PROFANA_ASSIGN_OR_RETURN(f.steps, passes::ParseStepRanges(o.steps));
  }
  f.skip_first_step = o.skip_first_step;
  if (!o.window.empty()) PROFANA_RETURN_IF_ERROR(passes::ParseWindow(o.window, &f));
  f.threads = o.threads;
  f.devices = o.devices;
  f.streams = o.streams;
  f.name = o.name;
  f.exclude = o.exclude;
  return f;
}

bool UseColor(const std::string& mode, const CommonOptions& o) {
  if (mode == "always") return true;
  if (mode == "never" || !(o.output.empty() || o.output == "-")) return false;
  const char* no_color = std::getenv("NO_COLOR");
  return (no_color == nullptr || *no_color == '\0') && isatty(STDOUT_FILENO);
}

double PeakRssMb() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

int Fail(const Status& status, Context& ctx) {
  ctx.err->append(fmt::format("profana: error: {}\n", status.message()));
  return status.code() == ErrorCode::kCheckFailed ? kExitCheckFailed : kExitBadInput;
}

namespace {

std::string DiagnosticSummary(const std::string& name, const Diagnostics& diag, Severity at_least) {
  std::string kinds;
  uint64_t total = 0;
  for (size_t k = 0; k < kDiagnosticKinds; ++k) {
    auto kind = static_cast<DiagnosticKind>(k);
    if (DiagnosticSeverity(kind) < at_least || diag.count(kind) == 0) continue;
    total += diag.count(kind);
    kinds +=
        fmt::format("{}{} {}", kinds.empty() ? "" : ", ", diag.count(kind), DiagnosticName(kind));
  }
  std::string first;
  for (const DiagnosticSample& s : diag.samples()) {
    if (DiagnosticSeverity(s.kind) < at_least) continue;
    std::string where = s.byte_offset == UINT64_MAX ? "" : fmt::format("byte {}", s.byte_offset);
    if (s.event_index >= 0)
      where += fmt::format("{}event #{}", where.empty() ? "" : ", ", s.event_index);
    first = fmt::format("; first: {}{}{}", where, where.empty() ? "" : ": ", s.detail);
    break;
  }
  return fmt::format("{}: {} problem{} ({}){}", name, total, total == 1 ? "" : "s", kinds, first);
}

}  // namespace

Result<Trace> LoadForCommand(const std::string& path, const CommonOptions& o, Context& ctx,
                             std::optional<FunctionEventIndex>* function_index) {
  if (o.verbose) ctx.log->set_level(spdlog::level::debug);
  // Bad filter options fail before the (maybe long) load.
  PROFANA_ASSIGN_OR_RETURN(passes::TraceFilter filter, FilterFromOptions(o));
  Stopwatch clock;
  LoadOptions load;
  if (!o.max_memory.empty() && !ParseByteSize(o.max_memory, &load.limits.max_bytes))
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("--max-memory {}: expected a size such as 512M, 16G or 0 (no limit)",
                              o.max_memory));
  PROFANA_ASSIGN_OR_RETURN(LoadedTrace loaded, LoadTrace(path, load));
  Trace& trace = loaded.trace;
  double ms = clock.Lap();
  ctx.log->debug(
      "{}: {} ({} bytes{}), {} events read in {:.1f} ms (peak RSS {:.0f} MB): {} duration, {} "
      "memory, {} flow; {} strings, {} stacks",
      path, trace.metadata.format, trace.metadata.input_bytes,
      trace.metadata.compressed_bytes ? fmt::format(", {} gzipped", trace.metadata.compressed_bytes)
                                      : "",
      trace.metadata.raw_events, ms, PeakRssMb(), trace.events.size(), trace.memory.size(),
      trace.flows.size(), trace.strings.size(), trace.stacks.size() - 1);
  std::string name = path == "-" ? "<stdin>" : path;
  const Diagnostics& diag = trace.diagnostics;
  // --strict: every problem a warning would mention is fatal (informational counts are not).
  if (o.strict && diag.CountAtLeast(Severity::kWarning) > 0)
    return Status(ErrorCode::kMalformed, DiagnosticSummary(name, diag, Severity::kWarning) +
                                             " (--strict makes these fatal)");
  if (!o.quiet && diag.CountAtLeast(Severity::kWarning) > 0)
    ctx.err->append(
        fmt::format("profana: warning: {} (see `profana info`; --strict makes these fatal)\n",
                    DiagnosticSummary(name, diag, Severity::kWarning)));
  for (const DiagnosticSample& s : diag.samples())
    ctx.log->debug("{}: {}: byte {}, event #{}: {}", name, DiagnosticName(s.kind),
                   s.byte_offset == UINT64_MAX ? -1 : static_cast<int64_t>(s.byte_offset),
                   s.event_index, s.detail);
  if (!filter.empty()) {
    loaded.function_index.reset();  // it describes every event of the file
    size_t before = trace.events.size();
    Status st = passes::FilterTrace(filter, &trace);
    if (!st.ok()) return Status(st.code(), fmt::format("{}: {}", name, st.message()));
    ctx.log->debug("filters kept {} of {} events in {:.1f} ms", trace.events.size(), before,
                   clock.Lap());
  }
  if (function_index) *function_index = std::move(loaded.function_index);
  return std::move(trace);
}

int Emit(std::string text, const CommonOptions& o, Context& ctx) {
  if (o.output.empty() || o.output == "-") {
    // Outputs run to hundreds of MB (a tree, stacks): hand the text over rather than copy it.
    if (ctx.out->empty())
      *ctx.out = std::move(text);
    else
      ctx.out->append(text);
    return kExitOk;
  }
  FILE* f = std::fopen(o.output.c_str(), "wb");
  if (!f)
    return Fail(
        Status(ErrorCode::kIo, fmt::format("{}: cannot write: {}", o.output, std::strerror(errno))),
        ctx);
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok) return Fail(Status(ErrorCode::kIo, fmt::format("{}: write failed", o.output)), ctx);
  return kExitOk;
}

}  // namespace profana::app
