#include "profana/passes/device_owners.h"

namespace profana::passes {

const char* LinkKindName(LinkKind kind) {
  switch (kind) {
    case LinkKind::kRecorded:
      return "external_id";
    case LinkKind::kEnclosing:
      return "enclosing";
    case LinkKind::kNone:
      break;
  }
  return "none";
}

std::vector<DeviceOwner> FindDeviceOwners(const Trace& trace, const FunctionEventList& events,
                                          const LaunchIndex& launches) {
  const EventTable& ev = trace.events;
  std::vector<DeviceOwner> owners(ev.size());
  // Ops first, overhead events (which list their op's kernels again) only for what is left.
  for (bool overheads : {false, true}) {
    for (uint32_t i = 0; i < events.size(); ++i) {
      EventId source = events.source[i];
      bool overhead = source != kSynthetic && ev.kind[source.value] == ActivityKind::kCpuOther;
      if (overhead != overheads) continue;
      for (uint32_t k = events.kernel_begin[i]; k < events.kernel_begin[i + 1]; ++k) {
        DeviceOwner& owner = owners[events.kernel_index[k].value];
        if (!owner.op.valid()) owner.op = FnEventId(i);
      }
    }
  }
  // How: the op is the one the recorded External id names (the launch's, else the activity's),
  // or else the enclosing op that the list's rule fell back to. A trace that records no links,
  // or --link enclosing, credits by enclosure alone, whatever the ids say.
  bool links = events.link != LinkRule::kEnclosing && TraceRecordsLinks(trace);
  for (uint32_t e = 0; e < ev.size(); ++e) {
    DeviceOwner& owner = owners[e];
    if (!owner.op.valid()) continue;
    int64_t ext = ev.external_id[e];
    if (std::optional<EventId> launch = launches.Launch(ev.correlation[e]))
      if (ev.external_id[launch->value] != kNoId) ext = ev.external_id[launch->value];
    EventId op = events.source[owner.op.value];
    owner.link = links && op != kSynthetic && ext != kNoId && ev.external_id[op.value] == ext
                     ? LinkKind::kRecorded
                     : LinkKind::kEnclosing;
  }
  return owners;
}

}  // namespace profana::passes
