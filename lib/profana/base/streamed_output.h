// Writing an output that a reporter produces chunk by chunk (base/output_sink.h) to where it
// goes: a sink (standard output) or a -o file that replaces the old one only once the last chunk
// is in. A second core, where there is one, does the writing while the reporter goes on
// (WriteBehindSink), and text meant for a terminal is made printable on the way
// (base/terminal_text.h).
#pragma once

#include <functional>
#include <string>

#include "profana/base/output_sink.h"

namespace profana {

// What a reporter does with the sink it is given.
using WriteOutput = std::function<Status(OutputSink*)>;

// Runs `write` into `sink`; with `printable`, each chunk's control characters are made visible
// (colours stay). Reporters cut their chunks between lines, so no escape sequence is split.
Status WriteStreamed(OutputSink* sink, bool printable, const WriteOutput& write);

// The same into the file at `path`, which is replaced whole when `write` succeeds and left as it
// was when it fails.
Status WriteFileStreamed(const std::string& path, bool printable, const WriteOutput& write);

}  // namespace profana
