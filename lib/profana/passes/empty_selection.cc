#include "profana/passes/empty_selection.h"

#include <algorithm>
#include <set>

#include "fmt/format.h"
#include "profana/model/activity_kind.h"

namespace profana::passes {
namespace {

constexpr size_t kListed = 8;  // threads or streams named in a message; the rest are counted

// '2813, 2862 "pt_autograd_0" and 3 more': the threads that hold host (or device) events.
std::string ListTracks(const Trace& t, bool device) {
  std::vector<uint8_t> used(t.threads.size(), 0);
  for (uint32_t i = 0; i < t.events.size(); ++i)
    if (t.events.kind[i] != ActivityKind::kTraceSpan &&
        IsDeviceActivity(t.events.kind[i]) == device)
      used[t.events.thread[i].value] = 1;
  std::vector<std::string> names;
  for (size_t i = 0; i < t.threads.size(); ++i) {
    if (!used[i]) continue;
    const ThreadInfo& th = t.threads[i];
    std::string id = th.tid_text.value ? std::string(t.str(th.tid_text)) : std::to_string(th.tid);
    if (!device && th.name.value) id += fmt::format(" \"{}\"", t.str(th.name));
    names.push_back(std::move(id));
  }
  if (names.empty()) return "none";
  std::string out = fmt::format(
      "{}", fmt::join(names.begin(), names.begin() + std::min(names.size(), kListed), ", "));
  if (names.size() > kListed) out += fmt::format(" and {} more", names.size() - kListed);
  return out;
}

bool NoneOk(const std::vector<uint8_t>& ok) {
  return std::none_of(ok.begin(), ok.end(), [](uint8_t v) { return v != 0; });
}

}  // namespace

bool SelectsNoTrack(const TraceFilter& f, const std::vector<uint8_t>& thread_ok,
                    const std::vector<uint8_t>& stream_ok) {
  return (!f.threads.empty() && NoneOk(thread_ok)) || (!f.streams.empty() && NoneOk(stream_ok));
}

std::string EmptySelectionMessage(const TraceFilter& f, const Trace& t,
                                  const std::vector<uint8_t>& thread_ok,
                                  const std::vector<uint8_t>& stream_ok, bool name_matched) {
  if (!f.threads.empty() && NoneOk(thread_ok))
    return fmt::format("--thread {} selects no thread: the trace has threads {}",
                       fmt::join(f.threads, ", "), ListTracks(t, false));
  if (!f.streams.empty() && NoneOk(stream_ok))
    return fmt::format("--stream {} selects no stream: the trace has device streams {}",
                       fmt::join(f.streams, ", "), ListTracks(t, true));
  if (!f.devices.empty()) {
    std::set<int32_t> devices;
    for (uint32_t i = 0; i < t.events.size(); ++i)
      if (IsDeviceActivity(t.events.kind[i])) devices.insert(t.events.device[i]);
    if (std::none_of(f.devices.begin(), f.devices.end(),
                     [&](int32_t d) { return devices.count(d) > 0; }))
      return fmt::format("--device {} selects no device: the trace has device activity on {} {}",
                         fmt::join(f.devices, ", "), devices.size() == 1 ? "device" : "devices",
                         fmt::join(devices, ", "));
  }
  size_t events = 0;
  std::set<uint32_t> names;
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (uint32_t i = 0; i < t.events.size(); ++i) {
    if (t.events.kind[i] == ActivityKind::kTraceSpan) continue;
    ++events;
    names.insert(t.events.trace_name[i].value);
    first = std::min(first, t.events.start_ns[i]);
    last = std::max(last, t.events.end_ns[i]);
  }
  if (!f.name.empty() && !name_matched)
    return fmt::format(
        "--name \"{}\" matches no event name: the trace has {} events with {} "
        "distinct names",
        f.name, events, names.size());
  if (f.window_start_ns || f.window_end_ns) {
    int64_t origin = t.metadata.origin.ns;
    return fmt::format("--window {} keeps no event: the trace's events run from {} to {} us",
                       f.window, (first - origin) / 1000, (last - origin + 999) / 1000);
  }
  return fmt::format("the filters keep none of the trace's {} events", events);
}

}  // namespace profana::passes
