// ScanSourceEvents: where each event of a Chrome-trace JSON file lies in its bytes, matched to
// the events of the Trace imported from them, and the cuda_sync waits Kineto records in args
// (model/source_events.h). An event is matched by its name, start and end as the importer read
// them: the k-th event of the file with a given (name, start, end) is the k-th such event of the
// trace, since the trace keeps events with equal times in file order. Not on a hot path: the
// critical path reads it once per trace, and its overlay writes the file back from it.
#pragma once

#include <optional>
#include <string>

#include "profana/base/input_buffer.h"
#include "profana/base/status.h"
#include "profana/model/source_events.h"
#include "profana/model/trace.h"

namespace profana::json {

// A kInvalidArgument error when the input is not a Chrome-trace JSON document (an object with
// "traceEvents", or a bare array of events).
Result<SourceEvents> ScanSourceEvents(const InputBuffer& input, const Trace& trace);

// A trace file's bytes and where its events lie in them.
struct SourceFile {
  InputBuffer bytes;
  SourceEvents events;
};

// Reads `path` again and scans it, for a trace imported from Chrome-trace JSON (its metadata
// says so); nothing (no error) for standard input, a native file or another format. An error when
// the file cannot be read again or does not scan.
Result<std::optional<SourceFile>> ReadSourceFile(const std::string& path, const Trace& trace,
                                                 const InputLimits& limits);
// The same from the input the trace was loaded from, still open: read again, not reopened.
Result<std::optional<SourceFile>> ReadSourceFile(const InputFile& file, const Trace& trace,
                                                 const InputLimits& limits);

}  // namespace profana::json
