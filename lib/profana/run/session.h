// What a command's run hands back to the program that runs it, as it goes: notes (the program
// turns them into log lines), the files it reads (the program will not write its output over
// one), a progress meter for each slow load, and its output (the program sends it to standard
// output or to -o FILE). The library never prints; apps/profana implements this for the CLI and
// the tests implement it to capture a run.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "profana/base/status.h"
#include "profana/base/streamed_output.h"
#include "profana/job/load_input.h"

namespace profana::run {

class Session {
 public:
  virtual ~Session() = default;

  // One note: a warning (shown unless the user asked for quiet) or a diagnostic (shown when
  // verbose), in the order they arise.
  virtual void Note(job::LoadNote note) = 0;
  // Whether diagnostics are shown: Debug formats nothing otherwise.
  virtual bool verbose() const = 0;
  // A file the run reads (a trace, a summary, a budget): the output must not replace it.
  virtual void Read(const std::string& path) = 0;
  // The progress meter of each slow load (job::LoadRequest::progress); empty: none shown.
  virtual job::ProgressFor Progress() const = 0;
  // Whether colours are wanted where the user left it to the program ("auto").
  virtual bool ColorsWanted() const = 0;

  // The run's result, whole.
  virtual Status Emit(std::string text) = 0;
  // A second output the user named (stacks --svg FILE): written as Emit writes -o FILE.
  virtual Status EmitFile(const std::string& path, std::string text) = 0;
  // Refuses an -o FILE that is one of the files read: what Emit asks first, for a run that writes
  // -o FILE itself (a database).
  virtual Status RefuseToOverwriteInput() const = 0;
  // A result written as it is made (hundreds of MB: a tree, stacks), chunk by chunk.
  virtual Status EmitStreamed(const WriteOutput& write) = 0;

  template <typename... Args>
  void Warn(fmt::format_string<Args...> format, Args&&... args) {
    Note({job::LoadNote::Level::kWarning, fmt::format(format, std::forward<Args>(args)...)});
  }
  template <typename... Args>
  void Debug(fmt::format_string<Args...> format, Args&&... args) {
    if (verbose())
      Note({job::LoadNote::Level::kDebug, fmt::format(format, std::forward<Args>(args)...)});
  }
  void Notes(const std::vector<job::LoadNote>& notes) {
    for (const job::LoadNote& note : notes) Note(note);
  }
  void Read(const std::vector<std::string>& paths) {
    for (const std::string& path : paths) Read(path);
  }
};

}  // namespace profana::run
