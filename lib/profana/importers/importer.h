// The importer plug-in point: one row per file format, each with a byte sniffer and an import
// function. A virtual call per file, never per event. Adding a format is one folder, one row.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "profana/base/input_buffer.h"
#include "profana/base/status.h"
#include "profana/model/function_event_index.h"
#include "profana/model/trace.h"

namespace profana {

struct ImporterInfo {
  const char* name;         // "chrome-json"
  const char* description;  // for --help
  bool (*sniff)(std::string_view first_bytes);
  Result<LoadedTrace> (*import)(const InputBuffer& input);
};

const std::vector<ImporterInfo>& Importers();

// Picks the importer by the content's first bytes (after gunzip). Null when none claims it.
const ImporterInfo* DetectFormat(std::string_view bytes);

// What a load may spend (--max-memory); see base/memory_limit.h.
struct LoadOptions {
  InputLimits limits;
};

// Reads a file (or "-" for stdin), detects its format and imports it. A native file's function
// event index comes with the trace (LoadedTrace); BuildFunctionEvents takes it.
Result<LoadedTrace> LoadTrace(const std::string& path, const LoadOptions& options = {});
Result<LoadedTrace> LoadTraceFromBuffer(const InputBuffer& input);

}  // namespace profana
