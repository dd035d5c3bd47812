// The input of `profana convert --annotate`: one trace loaded, its Chrome-trace JSON read again
// from the file the load opened (not reopened by its path), and its function events, which the
// annotated trace's tracks and critical path are drawn from (reporters/analysis_overlay.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "profana/base/status.h"
#include "profana/importers/chrome_json/source_scan.h"
#include "profana/job/load_input.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"

namespace profana::job {

struct AnnotatedInput {
  Trace trace;
  json::SourceFile file;  // the bytes the trace was imported from, and where its events lie
  passes::FunctionEventList events;
};

// Errors: an input that does not load, or that is not a Chrome-trace JSON file (standard input,
// another format: nothing to write back). Notes as load_input.h, with the --link auto note
// (trace_events.h). Held behind a pointer: the file's events describe the trace where it lies.
Result<std::unique_ptr<AnnotatedInput>> LoadAnnotatedInput(const std::string& path,
                                                           const LoadRequest& load,
                                                           passes::LinkRule link,
                                                           std::vector<LoadNote>* notes);

}  // namespace profana::job
