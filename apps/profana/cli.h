// RunCli: the whole command line, in-process. main() calls it with argv and prints what it
// returns; the golden tests call it directly. Nothing below apps/ prints or exits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/base/output_sink.h"

namespace profana::app {

// Runs `profana ARGS...` (args exclude the program name). Standard output and standard error
// text are appended to *out and *err; the return value is the exit code (0 ok, 1 a check
// failed, 2 bad input or usage). A command whose output can run to hundreds of MB (tree) writes
// its standard output to `stdout_stream` as it goes, when one is given, instead of to *out.
// A load that takes more than a second shows its progress on `progress_terminal`, when given.
// Once the command line is parsed, `cap_memory` (main() passes CapProcessMemory) is called with
// the command's --max-memory, or its default, before the command runs.
int RunCli(const std::vector<std::string>& args, std::string* out, std::string* err,
           OutputSink* stdout_stream = nullptr, OutputSink* progress_terminal = nullptr,
           void (*cap_memory)(uint64_t bytes) = nullptr);

}  // namespace profana::app
