// The native format's text twin (docs/native-format.md, "Text twin"): the same sections as lines,
// so that small fixtures live in testdata/ as text and are reviewed in diffs. Reading it builds
// the same Trace the binary reader would and runs the same checks (ValidateTables).
#pragma once

#include <string>
#include <string_view>

#include "profana/base/status.h"
#include "profana/model/trace.h"

namespace profana::native {

bool SniffNativeText(std::string_view first_bytes);
std::string WriteNativeText(const Trace& trace);
// Errors say "<name>: line N: what".
Result<Trace> ReadNativeText(std::string_view text, const std::string& name);

}  // namespace profana::native
