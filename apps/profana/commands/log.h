// Log: everything a command says on standard error besides its final error line. Warnings (off
// with --quiet) and --verbose diagnostics go through it into one text, in the order they happen,
// each line "profana: <message>". RunCli hands that text to main(), which prints it.
#pragma once

#include <iterator>
#include <string>
#include <string_view>
#include <utility>

#include "fmt/format.h"
#include "profana/base/terminal_text.h"

namespace profana::app {

class Log {
 public:
  explicit Log(std::string* err) : err_(err) {}

  void set_quiet(bool quiet) { quiet_ = quiet; }
  void set_verbose(bool verbose) { verbose_ = verbose; }

  // Something the user should know about the result (damaged events, an empty analysis).
  template <typename... Args>
  void Warn(fmt::format_string<Args...> format, Args&&... args) {
    if (!quiet_) Line(format, std::forward<Args>(args)...);
  }
  // Lines another Log already formatted (a worker's, for one input), passed on as they are.
  void Append(std::string_view lines) { err_->append(lines); }
  bool verbose() const { return verbose_; }
  bool quiet() const { return quiet_; }

  // How the run went (sizes, timings): only with --verbose.
  template <typename... Args>
  void Debug(fmt::format_string<Args...> format, Args&&... args) {
    if (verbose_) Line(format, std::forward<Args>(args)...);
  }

 private:
  template <typename... Args>
  void Line(fmt::format_string<Args...> format, Args&&... args) {
    // Messages quote names from the trace and file names: their control characters, a newline
    // too, are shown and not sent, so each message is one line.
    std::string line = Printable(fmt::format(format, std::forward<Args>(args)...));
    err_->append("profana: ");
    err_->append(line);
    err_->push_back('\n');
  }

  std::string* err_;
  bool quiet_ = false;
  bool verbose_ = false;
};

}  // namespace profana::app
