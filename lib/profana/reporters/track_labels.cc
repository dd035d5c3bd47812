#include "profana/reporters/track_labels.h"

#include "fmt/format.h"

namespace profana::report {

std::string TidText(TraceNames t, const ThreadInfo& info) {
  return info.tid_text.value ? std::string(t.str(info.tid_text)) : std::to_string(info.tid);
}

std::string ThreadLabel(TraceNames t, ThreadId id) {
  const ThreadInfo& info = t.threads[id.value];
  std::string pid =
      info.pid_text.value ? std::string(t.str(info.pid_text)) : std::to_string(info.pid);
  std::string label = fmt::format("thread {} (pid {})", TidText(t, info), pid);
  if (info.name.value) label += fmt::format(" \"{}\"", t.str(info.name));
  return label;
}

std::string StreamName(TraceNames t, ThreadId id) {
  if (id.value == UINT32_MAX) return "all";
  const ThreadInfo& info = t.threads[id.value];
  return info.tid_text.value ? std::string(t.str(info.tid_text))
                             : fmt::format("stream {}", info.tid);
}

std::string StreamLabel(TraceNames t, uint32_t event) {
  std::string stream = StreamName(t, t.events.thread[event]);
  int32_t device = t.events.device[event];
  return device >= 0 ? fmt::format("device {} {}", device, stream) : stream;
}

}  // namespace profana::report
