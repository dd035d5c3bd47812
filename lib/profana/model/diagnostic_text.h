// How a trace's diagnostics read in messages: where a sample was found, and the one-line summary
// of a load's warning or of its --strict error.
#pragma once

#include <string>

#include "profana/model/diagnostics.h"

namespace profana {

// "byte 120, event #3", "byte 120", "event #3" or "" (what the sample knows).
std::string DiagnosticWhere(const DiagnosticSample& sample);

// "<name>: 3 problems (2 unmatched_end, 1 missing_dur); first: byte 120: <detail>", over the
// kinds of severity `at_least` and above.
std::string DiagnosticSummary(const std::string& name, const Diagnostics& diagnostics,
                              Severity at_least);

}  // namespace profana
