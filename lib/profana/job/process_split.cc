#include "profana/job/process_split.h"

#include <climits>
#include <map>
#include <set>
#include <string>

#include "profana/model/launch_index.h"
#include "profana/passes/trace_filter.h"

namespace profana::job {
namespace {

// Who launched what: per pid, the device activities its threads launched, per device.
struct Launchers {
  std::map<int64_t, std::map<int32_t, int64_t>> by_pid;  // pid -> device -> activities
  std::set<int32_t> devices;                             // every device with activity
};

Launchers CountLaunches(const Trace& trace, const LaunchIndex& launches) {
  Launchers out;
  const EventTable& e = trace.events;
  for (uint32_t i = 0; i < e.size(); ++i) {
    if (!IsDeviceActivity(e.kind[i])) continue;
    out.devices.insert(e.device[i]);
    std::optional<EventId> launch = launches.Launch(e.correlation[i]);
    if (!launch) continue;
    const ThreadInfo& thread = trace.threads[e.thread[launch->value].value];
    ++out.by_pid[thread.pid][e.device[i]];
  }
  return out;
}

// The process that owns each device: the one that launched the most work on it (ties: the
// lowest pid); a device nobody launched on belongs to the lowest pid.
std::map<int32_t, int64_t> DeviceOwners(const Launchers& l) {
  std::map<int32_t, int64_t> owner;
  std::map<int32_t, int64_t> most;
  for (const auto& [pid, per_device] : l.by_pid)
    for (const auto& [device, n] : per_device)
      if (n > most[device]) most[device] = n, owner[device] = pid;
  for (int32_t device : l.devices)
    if (!owner.count(device)) owner[device] = l.by_pid.begin()->first;
  return owner;
}

}  // namespace

std::vector<int64_t> LaunchingProcesses(const Trace& trace) {
  std::vector<int64_t> pids;
  LaunchIndex launches(trace.events);
  for (const auto& [pid, devices] : CountLaunches(trace, launches).by_pid) pids.push_back(pid);
  return pids;
}

Result<std::vector<ProcessPart>> SplitByProcess(const Trace& trace) {
  LaunchIndex launches(
      trace.events);  // also serves each part's filter: a clone's events are the same
  Launchers launchers = CountLaunches(trace, launches);
  std::vector<ProcessPart> parts;
  if (launchers.by_pid.size() < 2) return parts;
  std::map<int32_t, int64_t> owner = DeviceOwners(launchers);
  for (const auto& [pid, devices] : launchers.by_pid) {
    // The --thread filter's rule: this process's host threads, and the device work they
    // launched; device work without a launch goes to the owner of its device.
    passes::TraceFilter filter;
    for (const ThreadInfo& t : trace.threads)
      if (t.pid == pid) filter.threads.push_back(std::to_string(t.tid));
    for (const auto& [device, device_owner] : owner)
      if (device_owner == pid) filter.unlaunched_devices.push_back(device);
    // A process that owns no device: a device id no activity has keeps its unlaunched list
    // from meaning "any".
    if (filter.unlaunched_devices.empty()) filter.unlaunched_devices.push_back(INT32_MIN);
    ProcessPart part{pid, trace.Clone()};
    PROFANA_RETURN_IF_ERROR(passes::FilterTrace(filter, &part.trace, &launches));
    parts.push_back(std::move(part));
  }
  return parts;
}

}  // namespace profana::job
