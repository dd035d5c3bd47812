// The importer plug-in point: one row per file format, each with a byte sniffer and an import
// function. A virtual call per file, never per event. Adding a format is one folder, one row; the
// table is the only way in (LoadTrace, the formats named in --help and in errors).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/input_buffer.h"
#include "profana/base/status.h"
#include "profana/model/function_event_index.h"
#include "profana/model/trace.h"

namespace profana {

// What a load may spend (--max-memory); see base/memory_limit.h.
struct LoadOptions {
  InputLimits limits;
  // Columns the caller will not read: every format's trace keeps them uniform, and the streaming
  // JSON reader never holds their values.
  UnreadColumns unread;
  // The streaming JSON reader's parser threads; 0: one per core this process may use (at most 8).
  // A job that reads several traces at once gives each its share of the cores.
  int parse_threads = 0;
};

struct ImporterInfo {
  // The format's name (model/trace_format.h), which the trace records; "chrome-json" reads
  // both Chrome-trace formats (kineto-json, chrome-json-array), and a native file keeps its
  // original's.
  const char* name;
  const char* noun;         // what FormatsSummary() calls it: "Chrome-trace JSON"
  const char* description;  // one line: what it reads
  bool (*sniff)(std::string_view first_bytes);
  // A native file's function event index comes with its trace (LoadedTrace); the other formats
  // have none.
  Result<LoadedTrace> (*import)(const InputBuffer& input);
  // Optional (null): reads a file by its path without reading it whole first (a native file is
  // mapped, JSON streams through a window). Answers no trace and no error when the file is not
  // its format, or when the whole-file import must judge it (damage it repairs or reports).
  Result<std::optional<LoadedTrace>> (*open)(InputFile& file, const LoadOptions& options);
};

const std::vector<ImporterInfo>& Importers();

// The formats of the table in one phrase, for --help and errors: "A, B and C".
std::string FormatsSummary();

// Picks the importer by the content's first bytes (after gunzip). Null when none claims it.
const ImporterInfo* DetectFormat(std::string_view bytes);

// Reads a file (or "-" for stdin), detects its format and imports it: each row's open() in
// table order, then the whole file read (gunzipped) and sniffed. A native file's function event
// index comes with the trace (LoadedTrace); BuildFunctionEvents takes it.
Result<LoadedTrace> LoadTrace(const std::string& path, const LoadOptions& options = {});
// The same from an input already open (base/input_file.h): every reader uses its descriptor.
Result<LoadedTrace> LoadTrace(InputFile& file, const LoadOptions& options = {});
Result<LoadedTrace> LoadTraceFromBuffer(const InputBuffer& input);

}  // namespace profana
