// RunCli: the whole command line, in-process. main() calls it with argv and prints what it
// returns; the golden tests call it directly. Nothing below apps/ prints or exits.
#pragma once

#include <string>
#include <vector>

namespace profana::app {

// Runs `profana ARGS...` (args exclude the program name). Standard output and standard error
// text are appended to *out and *err; the return value is the exit code (0 ok, 1 a check
// failed, 2 bad input or usage).
int RunCli(const std::vector<std::string>& args, std::string* out, std::string* err);

}  // namespace profana::app
