// What an input is, told from its first bytes (gunzipped) in one read: a summary file (profana
// summarize), a CUDA allocator snapshot (a pickle), or a trace (anything else: the importer table
// judges it as it loads). Every command that takes more than traces asks this one question.
#pragma once

#include <string>

namespace profana::job {

enum class InputKind { kTrace, kSummary, kSnapshot };

// Standard input ("-") and a file that cannot be read are traces: the load says what is wrong.
InputKind InputKindOf(const std::string& path);

}  // namespace profana::job
