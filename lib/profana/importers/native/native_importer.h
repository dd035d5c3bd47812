// Importer rows for profana's own formats: the native binary file and its text twin. Thin
// adapters over io/native_reader and io/native_text.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "profana/base/input_buffer.h"
#include "profana/base/status.h"
#include "profana/importers/importer.h"
#include "profana/model/function_event_index.h"
#include "profana/model/trace.h"

namespace profana::native {

bool SniffNativeBinary(std::string_view first_bytes);
Result<LoadedTrace> ImportNativeBinary(const InputBuffer& input);
// The row's path for files: a native file is mapped and its columns read in place, no copy of
// the whole file. No trace (and no error) for a file that is not native.
Result<std::optional<LoadedTrace>> OpenNativeBinary(InputFile& file, const LoadOptions& options);
bool SniffNativeTextFile(std::string_view first_bytes);
Result<Trace> ImportNativeText(const InputBuffer& input);

// Marks a trace read from a native container: metadata.format stays the original's.
void SetContainer(Trace* trace, const char* container, uint64_t bytes);

}  // namespace profana::native
