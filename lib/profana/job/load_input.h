// One input loaded for a command: the trace read by the importer table, its diagnostics judged
// (--strict), its steps marked (--step-marker) and its filters applied, in that order. What the
// user should be told comes back as notes, in the order they arose, for the caller to show.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "profana/base/progress.h"
#include "profana/base/status.h"
#include "profana/importers/importer.h"
#include "profana/job/job_inputs.h"
#include "profana/model/trace.h"
#include "profana/passes/trace_filter.h"

namespace profana::job {

// Where a slow load shows its progress (the app's meter): called with each input's path as its
// load begins; the function it returns is that load's ProgressFn, dropped when the load ends.
using ProgressFor = std::function<ProgressFn(const std::string& path)>;

struct LoadRequest {
  LoadOptions load;            // limits, progress, the columns the command never reads
  passes::TraceFilter filter;  // parsed where the options are read; empty keeps every event
  std::string step_marker;     // --step-marker REGEX; empty: ProfilerStep#N
  bool strict = false;         // --strict: a warning-severity diagnostic fails the load
  // Notes for the diagnostics and for an empty trace; off for a command that reports both itself
  // (info).
  bool warn = true;
  ProgressFor progress;  // empty: no progress shown (RunJob shows none)
};

struct LoadNote {
  enum class Level { kWarning, kDebug };  // printed always (unless -q), or with -v
  Level level;
  std::string text;
};

struct LoadedInput {
  Trace trace;
  // A native file's function event index (BuildFunctionEvents takes it); none once step markers
  // or filters have changed the trace it describes.
  std::optional<FunctionEventIndex> function_index;
  // The input, still open: what reads it again (the source scan of the critical path and the
  // overlays) reads this descriptor rather than opening the path a second time.
  std::shared_ptr<InputFile> file;
};

// Errors name the input ("<stdin>" for "-"). The notes are appended to *notes as they arise,
// those before a failure too.
Result<LoadedInput> LoadInput(const std::string& path, const LoadRequest& request,
                              std::vector<LoadNote>* notes);
// The same for an input of a job's list: its file when the expansion holds it open.
Result<LoadedInput> LoadInput(const JobInput& input, const LoadRequest& request,
                              std::vector<LoadNote>* notes);
// The same from an input already open (base/input_file.h), which the result keeps.
Result<LoadedInput> LoadInput(std::shared_ptr<InputFile> file, const LoadRequest& request,
                              std::vector<LoadNote>* notes);

}  // namespace profana::job
