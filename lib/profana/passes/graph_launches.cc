#include "profana/passes/graph_launches.h"

#include <algorithm>

#include "profana/base/flat_hash_map.h"

namespace profana::passes {

bool IsGraphLaunchName(std::string_view name) {
  for (std::string_view p : {"cudaGraphLaunch", "hipGraphLaunch", "cuGraphLaunch"})
    if (name.substr(0, p.size()) == p) return true;
  return false;
}

GraphLaunchSummary SummarizeGraphLaunches(const Trace& trace, const FunctionEventList& events,
                                          const LaunchIndex& launches) {
  const EventTable& ev = trace.events;
  GraphLaunchSummary out;
  // Which op each device activity is credited to.
  FlatHashMap<uint32_t, uint32_t> owner(1024);
  bool any_graph = false;
  for (uint32_t e = 0; e < ev.size() && !any_graph; ++e)
    any_graph = IsRuntimeOrDriver(ev.kind[e]) && IsGraphLaunchName(trace.str(ev.name[e]));
  if (any_graph)
    for (uint32_t i = 0; i < events.size(); ++i)
      for (uint32_t k = events.kernel_begin[i]; k < events.kernel_begin[i + 1]; ++k)
        owner.try_emplace(events.kernel_index[k].value, i);

  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (!IsRuntimeOrDriver(ev.kind[e]) || ev.correlation[e] == kNoId) continue;
    if (!IsGraphLaunchName(trace.str(ev.name[e]))) continue;
    std::optional<EventId> first = launches.Launch(ev.correlation[e]);
    if (!first || first->value != e) continue;  // the id's launch is another call
    GraphReplay r;
    r.launch = EventId(e);
    int64_t busy_end = INT64_MIN;
    for (EventId a : launches.ActivitiesOf(ev.correlation[e])) {  // in start order
      uint32_t k = a.value;
      if (!IsDeviceWork(ev.kind[k])) continue;
      if (r.activities++ == 0) {
        r.first_ns = ev.start_ns[k];
        r.stream = ev.thread[k];
      }
      r.last_ns = std::max(r.last_ns, ev.end_ns[k]);
      int64_t from = std::max(ev.start_ns[k], busy_end);
      if (ev.end_ns[k] > from) r.busy_ns += ev.end_ns[k] - from;
      busy_end = std::max(busy_end, ev.end_ns[k]);
      if (const uint32_t* op = owner.find(k)) {
        r.op = FnEventId(*op);
        ++out.credited;
      }
    }
    out.activities += r.activities;
    out.replays.push_back(r);
  }

  // Device work sharing a correlation id that no call in the trace has.
  FlatHashMap<int64_t, uint32_t> shared(1024);  // correlation -> activities seen
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (!IsDeviceWork(ev.kind[e]) || ev.correlation[e] == kNoId) continue;
    if (launches.Launch(ev.correlation[e])) continue;
    uint32_t& n = *shared.try_emplace(ev.correlation[e], 0).first;
    if (++n == 2) {
      ++out.unlaunched_groups;
      out.unlaunched_activities += 2;
    } else if (n > 2) {
      ++out.unlaunched_activities;
    }
  }
  return out;
}

}  // namespace profana::passes
