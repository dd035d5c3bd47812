#include <sys/resource.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/importers/importer.h"

namespace profana::app {

void AddCommonOptions(CLI::App* command, CommonOptions* o, const std::vector<std::string>& formats) {
  command->add_option("-o,--output", o->output, "Write the result to FILE instead of standard output");
  command->add_option("--format", o->format, "Output format")
      ->check(CLI::IsMember(formats))
      ->default_str(formats.front());
  command->add_flag("--strict", o->strict, "Treat damaged events (counted warnings) as fatal: exit 2");
  command->add_flag("-v,--verbose", o->verbose, "Print diagnostics of the import on standard error");
  command->add_flag("-q,--quiet", o->quiet, "Do not print warnings");
  command->add_option("--max-memory", o->max_memory,
                      "Refuse inputs whose content (after gunzip) passes SIZE, e.g. 512M, 16G; 0 = no limit "
                      "(default: half the physical memory)");
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
    kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", diag.count(kind), DiagnosticName(kind));
  }
  std::string first;
  for (const DiagnosticSample& s : diag.samples()) {
    if (DiagnosticSeverity(s.kind) < at_least) continue;
    std::string where = s.byte_offset == UINT64_MAX ? "" : fmt::format("byte {}", s.byte_offset);
    if (s.event_index >= 0) where += fmt::format("{}event #{}", where.empty() ? "" : ", ", s.event_index);
    first = fmt::format("; first: {}{}{}", where, where.empty() ? "" : ": ", s.detail);
    break;
  }
  return fmt::format("{}: {} problem{} ({}){}", name, total, total == 1 ? "" : "s", kinds, first);
}

}  // namespace

Result<Trace> LoadForCommand(const std::string& path, const CommonOptions& o, Context& ctx) {
  if (o.verbose) ctx.log->set_level(spdlog::level::debug);
  Stopwatch clock;
  LoadOptions load;
  if (!o.max_memory.empty() && !ParseByteSize(o.max_memory, &load.limits.max_bytes))
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("--max-memory {}: expected a size such as 512M, 16G or 0 (no limit)", o.max_memory));
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadTrace(path, load));
  double ms = clock.Lap();
  ctx.log->debug("{}: {} ({} bytes{}), {} events read in {:.1f} ms (peak RSS {:.0f} MB): {} duration, {} memory, {} flow; {} strings, {} stacks",
                 path, trace.metadata.format, trace.metadata.input_bytes,
                 trace.metadata.compressed_bytes ? fmt::format(", {} gzipped", trace.metadata.compressed_bytes) : "",
                 trace.metadata.raw_events, ms, PeakRssMb(), trace.events.size(), trace.memory.size(), trace.flows.size(),
                 trace.strings.size(), trace.stacks.size() - 1);
  std::string name = path == "-" ? "<stdin>" : path;
  const Diagnostics& diag = trace.diagnostics;
  // --strict: every problem a warning would mention is fatal (informational counts are not).
  if (o.strict && diag.CountAtLeast(Severity::kWarning) > 0)
    return Status(ErrorCode::kMalformed,
                  DiagnosticSummary(name, diag, Severity::kWarning) + " (--strict makes these fatal)");
  if (!o.quiet && diag.CountAtLeast(Severity::kWarning) > 0)
    ctx.err->append(fmt::format("profana: warning: {} (see `profana info`; --strict makes these fatal)\n",
                                DiagnosticSummary(name, diag, Severity::kWarning)));
  for (const DiagnosticSample& s : diag.samples())
    ctx.log->debug("{}: {}: byte {}, event #{}: {}", name, DiagnosticName(s.kind),
                   s.byte_offset == UINT64_MAX ? -1 : static_cast<int64_t>(s.byte_offset), s.event_index, s.detail);
  return trace;
}

int Emit(const std::string& text, const CommonOptions& o, Context& ctx) {
  if (o.output.empty() || o.output == "-") {
    ctx.out->append(text);
    return kExitOk;
  }
  FILE* f = std::fopen(o.output.c_str(), "wb");
  if (!f) return Fail(Status(ErrorCode::kIo, fmt::format("{}: cannot write: {}", o.output, std::strerror(errno))), ctx);
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok) return Fail(Status(ErrorCode::kIo, fmt::format("{}: write failed", o.output)), ctx);
  return kExitOk;
}

}  // namespace profana::app
