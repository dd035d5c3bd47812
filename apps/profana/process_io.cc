#include "profana/process_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "profana/base/output_file.h"

namespace profana::app {
namespace {

void OnFatalSignal(int signal) {
  RemovePendingOutputFile();
  // SA_RESETHAND restored the default action: the process ends as the signal asked.
  raise(signal);
}

}  // namespace

bool HoldStandardDescriptors() {
  bool stdout_closed = false;
  for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    if (fd == STDOUT_FILENO) stdout_closed = true;
    // The lowest free descriptor is `fd` itself, since it is closed.
    int held = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
    if (held >= 0 && held != fd) close(held);
  }
  return stdout_closed;
}

void RemoveOutputFileOnSignals() {
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGXFSZ}) {
    struct sigaction old {};
    if (sigaction(signal, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = OnFatalSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    sigaction(signal, &action, nullptr);
  }
}

int PrintResults(const std::string& out, std::string err, int code, bool stdout_closed) {
  if (!out.empty()) {
    Status st = StandardOutputSink(stdout_closed).Write(out);
    if (!st.ok()) {
      err += "profana: error: " + st.message() + "\n";
      if (code == 0) code = 2;
    }
  }
  if (!err.empty()) (void)WriteToDescriptor(STDERR_FILENO, err, "standard error");
  return code;
}

Status StandardOutputSink::Write(std::string_view bytes) {
  if (closed_)
    return Status(ErrorCode::kIo,
                  std::string("standard output: write failed: ") + std::strerror(EBADF));
  return WriteToDescriptor(STDOUT_FILENO, bytes, "standard output");
}

Status StandardErrorSink::Write(std::string_view bytes) {
  return WriteToDescriptor(STDERR_FILENO, bytes, "standard error");
}

}  // namespace profana::app
