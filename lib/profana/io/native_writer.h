// Writes a Trace as profana's native binary file (docs/native-format.md): the whole model,
// column by column, each section checksummed, and the function event index when one is given.
// Pure: returns the bytes, writes no file.
#pragma once

#include <optional>
#include <string>

#include "profana/model/function_event_index.h"
#include "profana/model/trace.h"

namespace profana::native {

std::string WriteNative(const Trace& trace,
                        const std::optional<FunctionEventIndex>& function_index = std::nullopt);

}  // namespace profana::native
