// What an input is, told from its first bytes (gunzipped) in one read: a summary file (profana
// summarize), a CUDA allocator snapshot (a pickle), or a trace (anything else: the importer table
// judges it as it loads). Every command that takes more than traces asks this one question.
#pragma once

#include <string>

#include "profana/base/input_file.h"

namespace profana::job {

enum class InputKind { kTrace, kSummary, kSnapshot };

// Standard input ("-") and a file that cannot be read are traces: the load says what is wrong.
InputKind InputKindOf(const std::string& path);
// The same from an input already open (base/input_file.h), which keeps the bytes read.
InputKind InputKindOf(InputFile& file);

}  // namespace profana::job
