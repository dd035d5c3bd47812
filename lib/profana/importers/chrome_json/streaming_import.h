// The streaming Chrome-trace importer: reads a JSON file (plain or gzipped) through one reused
// window, cuts the traceEvents array into runs of whole events (structure_scan.h; in a plain file,
// where an event likely ends, which the parser thread checks as it reads the run), parses the runs
// on worker threads into staged events with thread-local string pools, and commits them in file
// order on the calling thread. Memory is bounded by the window and the batches in flight, not by
// the file; the model it builds is byte for byte the one the whole-file importer builds (the
// string ids included: see the merge in streaming_import.cc), which a test checks on every trace
// in testdata/.
//
// It handles the well-formed case only. Anything else (a syntax error, a cut-short file, corrupt
// gzip, something that is not a Chrome trace) returns no trace, and the caller runs the
// whole-file importer, whose repair and messages are the reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "profana/base/input_file.h"
#include "profana/base/progress.h"
#include "profana/model/trace.h"

namespace profana::json {

struct StreamOptions {
  size_t read_bytes = 4 << 20;  // bytes per read, once the first reads (from 64 KiB) have grown
  // Text per parse batch. Each batch in flight holds its text and its parsed events; on a heap
  // of huge pages every buffer rounds up to 2 MiB, and 1 MiB batches kept 20 MB more resident
  // than these (docs/performance.md "Page faults and huge pages"), for no speed.
  size_t batch_bytes = 1 << 19;
  int workers = 0;  // parser threads; 0: one per core, at most 8
  // --max-memory: content (after gunzip) beyond this goes to the whole-file importer, which
  // stops at the same limit and names the position (0: no limit).
  uint64_t max_bytes = 0;
  // Told after each read: content bytes so far, of the file's size (0 when it is gzipped).
  ProgressFn progress;
  UnreadColumns unread;  // columns the caller will not read (LoadOptions::unread)
};

struct StreamAttempt {
  std::optional<Trace> trace;
  std::string fallback_reason;  // why there is no trace: the whole-file importer must run
  // A plain file's batches are cut where an event likely ends, unscanned; a cut that turned out
  // to be inside an event (or a string) made the rest of the file be read with the scanner.
  bool guessed_wrong = false;
};

StreamAttempt StreamChromeJson(const InputFile& file, const StreamOptions& options = {});
StreamAttempt StreamChromeJson(const std::string& path, const StreamOptions& options = {});

}  // namespace profana::json
