// How a command's run loads what it reads: one trace, or a whole job, with the command's options
// made into the library's load request, the notes and the files read handed to the Session.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/input_file.h"
#include "profana/base/input_name.h"
#include "profana/base/status.h"
#include "profana/base/stopwatch.h"
#include "profana/job/load_input.h"
#include "profana/job/run_job.h"
#include "profana/model/function_event_index.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"
#include "profana/run/command_options.h"
#include "profana/run/session.h"

namespace profana::run {

// How LoadForCommand speaks of a trace's damaged events.
enum class DiagnosticWarning { kWarn, kSilent };

// The load request every trace of the command gets: the parsed filters, --step-marker,
// --strict, --max-memory and the columns the command never reads.
job::LoadRequest LoadRequestFor(const CommonOptions& options,
                                DiagnosticWarning warning = DiagnosticWarning::kWarn);
// LoadRequestFor with the session's progress meter: for the library calls that load traces one
// at a time.
job::LoadRequest LoadRequestWithProgress(const CommonOptions& options, Session& session);
// job::LoadInput of one trace with the command's request and a progress meter, its notes
// handed on (kSilent: no warning for its diagnostics), its path read. With `function_index`, a
// native file's function event index comes back there.
Result<Trace> LoadForCommand(const std::string& path, const CommonOptions& options,
                             Session& session,
                             std::optional<FunctionEventIndex>* function_index = nullptr,
                             DiagnosticWarning warning = DiagnosticWarning::kWarn);
// The same for the one input job::SingleTraceInput found, read from the file it opened.
Result<Trace> LoadForCommand(const job::JobInput& input, const CommonOptions& options,
                             Session& session,
                             std::optional<FunctionEventIndex>* function_index = nullptr,
                             DiagnosticWarning warning = DiagnosticWarning::kWarn);
// job::BuildTraceEvents under --link, its note handed on.
Result<passes::FunctionEventList> BuildEventsForCommand(
    const Trace& trace, const std::optional<FunctionEventIndex>& index, const std::string& input,
    const CommonOptions& options, Session& session, bool counts = false);
// The whole of a small file an option names (a budget), as text. Read as trace inputs are:
// --max-memory bounds it, and `could_start` (if given) refuses it after its first bytes
// (base/input_buffer.h).
Result<std::string> ReadTextFile(const std::string& path, const CommonOptions& options,
                                 bool (*could_start)(std::string_view) = nullptr);
// Warns that a GPU analysis has nothing to look at: no kernel, memcpy or memset.
void WarnWithoutDeviceActivity(const Trace& trace, const std::string& path, Session& session);

// The inputs told apart by one look (job::SniffInputs): `single` when the command keeps its
// single-trace path (one file, no --ranks, no --by-rank), its file open for the load.
job::SniffedInputs SniffJobArgs(const JobArgs& args);
// The job the command reads: its inputs, --ranks, --jobs, the load request of its traces and
// --link; the command then says what each rank's summary keeps (job/run_job.h). `opened`: the
// summary file SniffJobArgs opened, read rather than opened again.
job::JobRequest JobRequestFor(const JobArgs& args, const CommonOptions& options,
                              std::shared_ptr<InputFile> opened = nullptr);
// RunJob, with its notes and the inputs it read handed to the session.
Result<job::JobRun> RunJobForCommand(const job::JobRequest& request, Session& session);
// The request of a command that reads one or two FILEs, each a trace or a job (diff, check):
// --ranks, the load request (with a progress meter for a single trace) and --link.
job::JobRequest SidesRequestFor(const job::RankSelection& ranks, const CommonOptions& options,
                                Session& session);

// A library call's result (a run that names the `paths` it read), its notes and the paths handed
// to the session.
template <typename Run>
Result<Run> WithNotes(Result<Run> run, const std::vector<job::LoadNote>& notes, Session& session) {
  session.Notes(notes);
  if (run.ok()) session.Read(run->paths);
  return run;
}

}  // namespace profana::run
