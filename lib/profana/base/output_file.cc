#include "profana/base/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace profana {
namespace {

// The temporary file being written, for RemovePendingOutputFile. A handler may run between any
// two instructions: the name is complete before `g_pending` says so, and cleared after.
char g_pending_path[PATH_MAX + 1];
volatile sig_atomic_t g_pending = 0;

void SetPending(const std::string& path) {
  g_pending = 0;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  std::memcpy(g_pending_path, path.c_str(), path.size() + 1);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  g_pending = 1;
}

void ClearPending() {
  g_pending = 0;
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

std::string Reason(int error) { return std::strerror(error); }

Status WriteAll(int fd, std::string_view bytes, const std::string& name) {
  while (!bytes.empty()) {
    ssize_t n = write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status(ErrorCode::kIo, name + ": write failed: " + Reason(errno));
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status::Ok();
}

// Files that are written where they are: they cannot be renamed over (a terminal, /dev/null,
// a pipe given as /dev/stdout or /proc/self/fd/N).
bool WriteInPlace(const std::string& path) {
  if (path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0) return true;
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

// A name no other writer picks: six letters from the process id, the clock and a counter.
std::string TemporaryName(const std::string& dir, const std::string& base) {
  static unsigned counter = 0;
  uint64_t seed =
      static_cast<uint64_t>(getpid()) * 0x9E3779B97F4A7C15ull ^
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
      (static_cast<uint64_t>(++counter) << 40);
  static const char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string suffix;
  for (int i = 0; i < 6; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    suffix.push_back(kLetters[(seed >> 33) % (sizeof(kLetters) - 1)]);
  }
  return dir + "." + base + "." + suffix;
}

}  // namespace

ReplacingFile::~ReplacingFile() { Abandon(); }

void ReplacingFile::Abandon() {
  if (fd_ < 0) return;
  close(fd_);
  fd_ = -1;
  if (!in_place_) {
    unlink(temp_.c_str());
    ClearPending();
  }
}

Status ReplacingFile::Open(const std::string& path) {
  Abandon();
  path_ = path;
  if (path.empty()) return Status(ErrorCode::kInvalidArgument, "an empty output file name");
  in_place_ = WriteInPlace(path);
  if (in_place_) {
    fd_ = open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd_ < 0) return Status(ErrorCode::kIo, path + ": cannot write: " + Reason(errno));
    return Status::Ok();
  }
  // Replace a link's target, not the link.
  target_ = path;
  struct stat link {};
  if (lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    if (char* real = realpath(path.c_str(), nullptr)) {
      target_ = real;
      std::free(real);
    }
  }
  size_t slash = target_.rfind('/');
  std::string dir = slash == std::string::npos ? "" : target_.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? target_ : target_.substr(slash + 1);
  struct stat old {};
  bool replacing = stat(target_.c_str(), &old) == 0;

  for (int attempt = 0; fd_ < 0; ++attempt) {
    temp_ = TemporaryName(dir, base);
    if (temp_.size() > PATH_MAX)
      return Status(ErrorCode::kIo, path + ": cannot write: " + Reason(ENAMETOOLONG));
    SetPending(temp_);  // before it exists: a signal from here on removes it
    // 0666: open() takes the umask off, as for any new file.
    fd_ = open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0) {
      int error = errno;
      ClearPending();
      if (error != EEXIST || attempt == 100)
        return Status(ErrorCode::kIo, path + ": cannot write: " + Reason(error));
    }
  }
  if (replacing && fchmod(fd_, old.st_mode & 07777) != 0) {
    Status st(ErrorCode::kIo, path + ": cannot write: " + Reason(errno));
    Abandon();
    return st;
  }
  return Status::Ok();
}

Status ReplacingFile::Write(std::string_view bytes) {
  if (fd_ < 0) return Status(ErrorCode::kIo, path_ + ": write failed: the file is not open");
  Status st = WriteAll(fd_, bytes, path_);
  if (!st.ok()) Abandon();
  return st;
}

Status ReplacingFile::Commit() {
  if (fd_ < 0) return Status(ErrorCode::kIo, path_ + ": write failed: the file is not open");
  int closed = close(fd_);
  fd_ = -1;
  int error = errno;
  if (in_place_)
    return closed == 0 ? Status::Ok()
                       : Status(ErrorCode::kIo, path_ + ": write failed: " + Reason(error));
  Status st;
  if (closed != 0)
    st = Status(ErrorCode::kIo, path_ + ": write failed: " + Reason(error));
  else if (rename(temp_.c_str(), target_.c_str()) != 0)
    st = Status(ErrorCode::kIo, path_ + ": cannot replace: " + Reason(errno));
  if (!st.ok()) unlink(temp_.c_str());
  ClearPending();
  return st;
}

Status WriteFileReplacing(const std::string& path, std::string_view bytes) {
  ReplacingFile file;
  PROFANA_RETURN_IF_ERROR(file.Open(path));
  PROFANA_RETURN_IF_ERROR(file.Write(bytes));
  return file.Commit();
}

Status WriteToDescriptor(int fd, std::string_view bytes, const std::string& name) {
  return WriteAll(fd, bytes, name);
}

void RemovePendingOutputFile() {
  if (g_pending) unlink(g_pending_path);
}

bool IsSameFile(const std::string& output, const std::string& input) {
  if (output == input) return true;
  struct stat out {};
  struct stat in {};
  return stat(output.c_str(), &out) == 0 && S_ISREG(out.st_mode) && stat(input.c_str(), &in) == 0 &&
         out.st_dev == in.st_dev && out.st_ino == in.st_ino;
}

}  // namespace profana
