#include "profana/run/command_load.h"

#include "profana/base/input_buffer.h"
#include "profana/base/input_name.h"
#include "profana/job/trace_events.h"
#include "profana/model/activity_kind.h"

namespace profana::run {

job::LoadRequest LoadRequestFor(const CommonOptions& o, DiagnosticWarning warning) {
  job::LoadRequest request;
  request.filter = o.filter;
  if (o.max_memory) request.load.limits.max_bytes = *o.max_memory;
  request.load.unread = o.unread;
  request.load.unread.flows = !o.keeps_flows;
  request.step_marker = o.step_marker;
  request.strict = o.strict;
  request.warn = warning == DiagnosticWarning::kWarn;
  return request;
}

job::LoadRequest LoadRequestWithProgress(const CommonOptions& o, Session& session) {
  job::LoadRequest request = LoadRequestFor(o);
  request.progress = session.Progress();
  return request;
}

Result<Trace> LoadForCommand(const std::string& path, const CommonOptions& o, Session& session,
                             std::optional<FunctionEventIndex>* function_index,
                             DiagnosticWarning warning) {
  job::JobInput input;
  input.path = path;
  return LoadForCommand(input, o, session, function_index, warning);
}

Result<Trace> LoadForCommand(const job::JobInput& input, const CommonOptions& o, Session& session,
                             std::optional<FunctionEventIndex>* function_index,
                             DiagnosticWarning warning) {
  job::LoadRequest request = LoadRequestFor(o, warning);
  request.progress = session.Progress();
  session.Read(input.path);
  std::vector<job::LoadNote> notes;
  Result<job::LoadedInput> read = job::LoadInput(input, request, &notes);
  session.Notes(notes);
  PROFANA_ASSIGN_OR_RETURN(job::LoadedInput loaded, std::move(read));
  if (function_index) *function_index = std::move(loaded.function_index);
  return std::move(loaded.trace);
}

Result<passes::FunctionEventList> BuildEventsForCommand(
    const Trace& trace, const std::optional<FunctionEventIndex>& index, const std::string& input,
    const CommonOptions& options, Session& session, bool counts) {
  std::vector<job::LoadNote> notes;
  Result<passes::FunctionEventList> events =
      job::BuildTraceEvents(trace, index, input, options.link, &notes, counts);
  session.Notes(notes);
  return events;
}

Result<std::string> ReadTextFile(const std::string& path, const CommonOptions& o,
                                 bool (*could_start)(std::string_view)) {
  InputLimits limits;
  if (o.max_memory) limits.max_bytes = *o.max_memory;
  limits.could_start = could_start;
  PROFANA_ASSIGN_OR_RETURN(InputBuffer input, ReadInput(path, limits));
  return std::string(input.view());
}

void WarnWithoutDeviceActivity(const Trace& t, const std::string& path, Session& session) {
  for (ActivityKind k : t.events.kind)
    if (IsDeviceWork(k)) return;
  session.Warn("{}: no device activity (no kernel, memcpy or memset)", InputName(path));
}

job::SniffedInputs SniffJobArgs(const JobArgs& a) {
  if (!a.ranks.all() || a.by_rank) return {};
  return job::SniffInputs(a.inputs);
}

job::JobRequest JobRequestFor(const JobArgs& a, const CommonOptions& options,
                              std::shared_ptr<InputFile> opened) {
  job::JobRequest r;
  r.inputs = a.inputs;
  r.opened = std::move(opened);
  r.ranks = a.ranks;
  r.workers = static_cast<size_t>(a.jobs);
  r.load = LoadRequestFor(options);
  r.link = options.link;
  return r;
}

Result<job::JobRun> RunJobForCommand(const job::JobRequest& request, Session& session) {
  std::vector<job::LoadNote> notes;
  return WithNotes(job::RunJob(request, &notes), notes, session);
}

job::JobRequest SidesRequestFor(const job::RankSelection& ranks, const CommonOptions& options,
                                Session& session) {
  job::JobRequest request = JobRequestFor({{}, ranks}, options);
  request.load.progress = session.Progress();
  return request;
}

}  // namespace profana::run
