// What main() does around RunCli to talk to the process's surroundings safely: keeps the three
// standard descriptors open (so a file profana opens never lands on descriptor 1 when the caller
// closed standard output), removes a half-written output file when SIGINT, SIGTERM, SIGHUP or
// SIGXFSZ (a file size limit) ends the process, and prints the results with every write checked.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "profana/base/output_sink.h"

namespace profana::app {

// Opens /dev/null on standard input, output and error where the caller closed them; returns
// true when standard output was closed (writing to it must then fail, not vanish).
bool HoldStandardDescriptors();

// Installs handlers that remove the output file being written (base/output_file.h), then die of
// the same signal. Signals the caller ignores (nohup, a background job) stay ignored.
void RemoveOutputFileOnSignals();

// Ends the process with exit code 2 and a message naming the file when an input file profana has
// mapped is cut short under it (SIGBUS at an address past the file's new end: another program
// truncated it while it was read), after removing the output file being written. Any other
// SIGBUS ends the process as before. Call it before any file is mapped.
void ReportInputCutShortOnSigbus();

// Caps the memory the process may hold (RLIMIT_DATA: heap, anonymous mappings, thread stacks)
// at `bytes`, and at no less than kSmallestProcessCap, which the program itself needs. An
// allocation past the cap ends the process: the output file being written is removed, standard
// error says which limit was reached and how to raise it, and the exit code is 2. 0: no cap.
// Does nothing in a build with AddressSanitizer, whose shadow memory is far past any cap.
inline constexpr uint64_t kSmallestProcessCap = uint64_t{64} << 20;
void CapProcessMemory(uint64_t bytes);

// Writes `out` to standard output and `err` to standard error. A failed write to standard
// output adds "profana: error: standard output: write failed: REASON" to the error text and
// makes the exit code 2 (unless it is already an error). Returns the exit code.
int PrintResults(const std::string& out, std::string err, int code, bool stdout_closed);

// Standard output for a command that writes as it goes (profana tree): every write checked, and
// failing as PrintResults does when the caller closed standard output.
class StandardOutputSink final : public OutputSink {
 public:
  explicit StandardOutputSink(bool closed) : closed_(closed) {}
  Status Write(std::string_view bytes) override;

 private:
  bool closed_;
};

// Standard error, written at once (the progress line of a slow load); errors are ignored there.
class StandardErrorSink final : public OutputSink {
 public:
  Status Write(std::string_view bytes) override;
};

}  // namespace profana::app
