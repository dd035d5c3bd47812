// One trace's critical paths for `profana critical-path`: the trace loaded, its file read a second
// time for where its events lie (the cuda_sync waits, the overlay), and HTA's critical path of
// each window the request selects. A file that is not Chrome JSON (or standard input) goes
// without: its event syncs add no edges.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/importers/chrome_json/source_scan.h"
#include "profana/job/load_input.h"
#include "profana/model/trace.h"
#include "profana/passes/critical_path/critical_path.h"

namespace profana::job {

struct TraceCriticalPaths {
  Trace trace;
  std::optional<json::SourceFile> file;  // the file's bytes and events, when it was read again
  passes::CriticalPathResult result;
};

// `need_file`: an error when the file cannot be read again (--overlay writes it back); otherwise
// a file that cannot be is a note. Held behind a pointer: the result and the file's events
// describe the trace where it lies.
Result<std::unique_ptr<TraceCriticalPaths>> CriticalPathsOfInput(const JobInput& input,
                                                                 const LoadRequest& load,
                                                                 const passes::CpRequest& request,
                                                                 bool need_file,
                                                                 std::vector<LoadNote>* notes);

}  // namespace profana::job
