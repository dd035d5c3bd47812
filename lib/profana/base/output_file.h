// Writing a result file so that nobody ever sees half of it: the bytes go to a temporary file
// beside the destination, which is renamed over it only after a successful close. A failed write
// (a full disk, an I/O error) removes the temporary file and leaves the old file as it was, and a
// reader that has the old file mapped keeps reading the old bytes.
//
// The temporary file being written is kept in a small registry that a signal handler can read:
// RemovePendingOutputFile() is async-signal-safe, so the app's SIGINT/SIGTERM handler removes it
// before the process dies. The library installs no handler itself.
#pragma once

#include <string>
#include <string_view>

#include "profana/base/status.h"

namespace profana {

// Writes `bytes` as the whole content of `path`, by way of a temporary file `.NAME.XXXXXX` in
// the same folder, renamed into place. A new file gets the mode 0666 less the umask; a replaced
// file keeps its mode. A symbolic link is followed: its target is replaced, the link stays.
// Devices, pipes and other files that are not regular (and paths under /dev/ and /proc/) are
// written in place, since they cannot be replaced. Errors name the file and errno's reason.
Status WriteFileReplacing(const std::string& path, std::string_view bytes);

// The same, for an output written piece by piece (a report of hundreds of MB is never held
// whole): Open, Write as often as needed, Commit renames the temporary file into place. A
// failed Write, or destruction without a Commit, removes the temporary file; the old file stays.
class ReplacingFile {
 public:
  ReplacingFile() = default;
  ~ReplacingFile();
  ReplacingFile(const ReplacingFile&) = delete;
  ReplacingFile& operator=(const ReplacingFile&) = delete;

  Status Open(const std::string& path);
  Status Write(std::string_view bytes);
  Status Commit();

  // After Open: the file being written, for a writer that opens it by name (SQLite): the
  // temporary file, or the path itself when it is written in place (in_place()).
  const std::string& writing_path() const { return in_place_ ? path_ : temp_; }
  bool in_place() const { return in_place_; }

 private:
  void Abandon();

  std::string path_;    // as the user wrote it, for messages
  std::string target_;  // the file replaced (a link's target)
  std::string temp_;
  int fd_ = -1;
  bool in_place_ = false;
};

// Writes all of `bytes` to an open descriptor, retrying short writes and EINTR. `name` is how a
// failure speaks of it ("standard output: write failed: No space left on device").
Status WriteToDescriptor(int fd, std::string_view bytes, const std::string& name);

// Removes the temporary file a WriteFileReplacing is filling at this moment, if any. Only
// async-signal-safe calls: for signal handlers.
void RemovePendingOutputFile();

// True when writing `output` would overwrite `input`: the same path, or both exist and are the
// same regular file (device and inode; links and other spellings of the path included).
bool IsSameFile(const std::string& output, const std::string& input);

}  // namespace profana
