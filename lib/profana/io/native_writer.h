// Writes a Trace as profana's native binary file (docs/native-format.md): the whole model,
// column by column, each section checksummed. Pure: returns the bytes, writes no file.
#pragma once

#include <string>

#include "profana/model/trace.h"

namespace profana::native {

std::string WriteNative(const Trace& trace);

}  // namespace profana::native
