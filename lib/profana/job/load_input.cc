#include "profana/job/load_input.h"

#include "fmt/format.h"
#include "profana/base/input_name.h"
#include "profana/base/stopwatch.h"
#include "profana/model/diagnostic_text.h"
#include "profana/passes/step_marker.h"

namespace profana::job {

Result<LoadedInput> LoadInput(const std::string& path, const LoadRequest& request,
                              std::vector<LoadNote>* notes) {
  PROFANA_ASSIGN_OR_RETURN(InputFile file, InputFile::Open(path));
  return LoadInput(std::make_shared<InputFile>(std::move(file)), request, notes);
}

Result<LoadedInput> LoadInput(const JobInput& input, const LoadRequest& request,
                              std::vector<LoadNote>* notes) {
  PROFANA_ASSIGN_OR_RETURN(std::shared_ptr<InputFile> file, OpenJobInput(input));
  return LoadInput(std::move(file), request, notes);
}

Result<LoadedInput> LoadInput(std::shared_ptr<InputFile> file, const LoadRequest& request,
                              std::vector<LoadNote>* notes) {
  Stopwatch clock;
  const std::string& path = file->path();
  Result<LoadedTrace> read = [&] {
    if (!request.progress) return LoadTrace(*file, request.load);
    LoadOptions load = request.load;
    load.limits.progress = request.progress(path);
    return LoadTrace(*file, load);
  }();  // the progress line is gone before the notes are shown
  PROFANA_ASSIGN_OR_RETURN(LoadedTrace loaded, std::move(read));
  LoadedInput out{std::move(loaded.trace), std::move(loaded.function_index), std::move(file)};
  Trace& trace = out.trace;
  auto note = [&](LoadNote::Level level, std::string text) {
    notes->push_back({level, std::move(text)});
  };
  constexpr auto kWarning = LoadNote::Level::kWarning;
  constexpr auto kDebug = LoadNote::Level::kDebug;
  note(kDebug,
       fmt::format(
           "{}: {} ({} bytes{}), {} events read in {:.1f} ms (peak RSS {:.0f} MB): {} duration, {} "
           "memory, {} flow; {} strings, {} stacks",
           path, TraceFormatName(trace.metadata.format), trace.metadata.input_bytes,
           trace.metadata.compressed_bytes
               ? fmt::format(", {} gzipped", trace.metadata.compressed_bytes)
               : "",
           trace.metadata.raw_events, clock.Lap(), PeakRssMb(), trace.events.size(),
           trace.memory.size(), trace.flows.size(), trace.strings.size(), trace.stacks.size() - 1));
  std::string name = InputName(path);
  const Diagnostics& diag = trace.diagnostics;
  // --strict: every problem a warning would mention is fatal (informational counts are not).
  if (request.strict && diag.CountAtLeast(Severity::kWarning) > 0)
    return Status(ErrorCode::kMalformed, DiagnosticSummary(name, diag, Severity::kWarning) +
                                             " (--strict makes these fatal)");
  if (request.warn && diag.CountAtLeast(Severity::kWarning) > 0)
    note(kWarning, fmt::format("warning: {} (see `profana info`; --strict makes these fatal)",
                               DiagnosticSummary(name, diag, Severity::kWarning)));
  for (const DiagnosticSample& s : diag.samples())
    note(kDebug, fmt::format("{}: {}: byte {}, event #{}: {}", name, DiagnosticName(s.kind),
                             s.byte_offset == UINT64_MAX ? -1 : static_cast<int64_t>(s.byte_offset),
                             s.event_index, s.detail));
  if (request.warn && trace.events.size() == 0 && trace.memory.size() == 0)
    note(kWarning,
         fmt::format("{}: the trace is empty: {}", name,
                     trace.metadata.raw_events == 0
                         ? std::string("it holds no events")
                         : fmt::format("no duration events or [memory] records among its {} events",
                                       trace.metadata.raw_events)));
  if (!request.step_marker.empty()) {
    out.function_index.reset();  // it names the markers as the file does
    Status st = passes::MarkSteps(request.step_marker, &trace);
    if (!st.ok()) return Status(st.code(), fmt::format("{}: {}", name, st.message()));
  }
  if (!request.filter.empty()) {
    out.function_index.reset();  // it describes every event of the file
    size_t before = trace.events.size();
    Status st = passes::FilterTrace(request.filter, &trace);
    if (!st.ok()) return Status(st.code(), fmt::format("{}: {}", name, st.message()));
    note(kDebug, fmt::format("filters kept {} of {} events in {:.1f} ms", trace.events.size(),
                             before, clock.Lap()));
  }
  return out;
}

}  // namespace profana::job
