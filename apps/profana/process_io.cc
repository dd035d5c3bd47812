#include "profana/process_io.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <new>

#include "fmt/format.h"
#include "profana/base/byte_size.h"
#include "profana/base/mapped_file.h"
#include "profana/base/memory_limit.h"
#include "profana/base/output_file.h"
#include "profana/base/sanitizers.h"
#include "profana/base/terminal_text.h"

namespace profana::app {
namespace {

void OnFatalSignal(int signal) {
  RemovePendingOutputFile();
  // SA_RESETHAND restored the default action: the process ends as the signal asked.
  raise(signal);
}

constexpr char kInputCutShort[] =
    "cut short while it was being read (another program truncated or rewrote it); read it again "
    "once it is whole\n";

void WriteError(std::string_view s) { (void)!write(STDERR_FILENO, s.data(), s.size()); }

void OnBusError(int signal, siginfo_t* info, void*) {
  // BUS_ADRERR: a mapped page past the end of its file. Anything else (another fault, a SIGBUS
  // sent by kill) ends the process as the signal asks: SA_RESETHAND restored the default action.
  if (info->si_code != BUS_ADRERR) {
    raise(signal);
    return;
  }
  RemovePendingOutputFile();
  // Only writes of text made beforehand: the file's name was stored, shown, when it was mapped.
  const char* name = MappedFileAt(info->si_addr);
  WriteError("profana: error: ");
  if (name) {
    WriteError(name);
    WriteError(": ");
  } else {
    WriteError("an input file was ");
  }
  WriteError(kInputCutShort);
  _exit(2);
}

// Written when an allocation fails under the cap; made beforehand, since nothing can be
// allocated then.
std::string memory_cap_message;

// Set by the first thread that meets the cap: two threads meeting it at once (a parser and the
// main thread, tree's writer and its walk) must not both say so.
std::atomic_flag cap_reported = ATOMIC_FLAG_INIT;

void OnMemoryCapReached() {
  if (cap_reported.test_and_set()) {
    for (;;) pause();  // the first thread is ending the process
  }
  RemovePendingOutputFile();
  (void)!write(STDERR_FILENO, memory_cap_message.data(), memory_cap_message.size());
  _exit(2);
}

}  // namespace

void CapProcessMemory(uint64_t bytes) {
  if (kAddressSanitizer) return;
  struct rlimit limit {};
  if (getrlimit(RLIMIT_DATA, &limit) != 0) return;
  uint64_t cap = bytes ? std::max(bytes, kSmallestProcessCap) : 0;
  // A tighter limit set by the caller (ulimit -d, a scheduler) stays; it is never raised.
  if (cap && (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > cap) &&
      (limit.rlim_max == RLIM_INFINITY || limit.rlim_max >= cap)) {
    limit.rlim_cur = cap;
    if (setrlimit(RLIMIT_DATA, &limit) != 0) return;
    memory_cap_message = fmt::format(
        "profana: error: the run needs more memory than the limit of {} (--max-memory); if the "
        "input is genuine, raise the limit, e.g. --max-memory {}, or 0 for none\n",
        FormatBytes(static_cast<int64_t>(bytes)), SuggestedMemoryLimit(bytes));
  } else if (limit.rlim_cur != RLIM_INFINITY) {
    memory_cap_message = fmt::format(
        "profana: error: the run needs more memory than the data limit of {} its caller set "
        "(ulimit -d)\n",
        FormatBytes(static_cast<int64_t>(limit.rlim_cur)));
  } else {
    return;
  }
  std::set_new_handler(OnMemoryCapReached);
}

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

void ReportInputCutShortOnSigbus() {
  SetMappedFileNameStyle(Printable);
  struct sigaction action {};
  action.sa_sigaction = OnBusError;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_SIGINFO | SA_RESETHAND;
  sigaction(SIGBUS, &action, nullptr);
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
