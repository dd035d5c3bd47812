#include "profana/job/collective_calls.h"

#include <algorithm>

#include "profana/job/kernel_stats.h"
#include "profana/job/step_breakdown.h"

namespace profana::job {

const char* CollectiveKindName(CollectiveKind k) {
  switch (k) {
    case CollectiveKind::kAllReduce:
      return "allreduce";
    case CollectiveKind::kAllGather:
      return "allgather";
    case CollectiveKind::kReduceScatter:
      return "reducescatter";
    case CollectiveKind::kBroadcast:
      return "broadcast";
    case CollectiveKind::kReduce:
      return "reduce";
    case CollectiveKind::kSendRecv:
      return "sendrecv";
    case CollectiveKind::kOther:
      return "other";
  }
  return "other";
}

CollectiveKind CollectiveKindOfKernel(std::string_view name) {
  // The word after "Kernel_" (ncclKernel_X_..., ncclDevKernel_X_...), up to '_' or '('.
  size_t at = name.find("Kernel_");
  if (at == std::string_view::npos) return CollectiveKind::kOther;
  std::string_view word = name.substr(at + 7);
  word = word.substr(0, std::min(word.find('_'), word.find('(')));
  static constexpr std::pair<std::string_view, CollectiveKind> kWords[] = {
      {"AllReduce", CollectiveKind::kAllReduce},
      {"AllGather", CollectiveKind::kAllGather},
      {"ReduceScatter", CollectiveKind::kReduceScatter},
      {"Broadcast", CollectiveKind::kBroadcast},
      {"Reduce", CollectiveKind::kReduce},
      {"SendRecv", CollectiveKind::kSendRecv},
      {"Send", CollectiveKind::kSendRecv},
      {"Recv", CollectiveKind::kSendRecv},
  };
  for (const auto& [w, kind] : kWords)
    if (word == w) return kind;
  return CollectiveKind::kOther;
}

std::vector<CollectiveCall> FindCollectiveCalls(const Trace& t) {
  std::vector<CollectiveCall> out;
  const EventTable& ev = t.events;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (CategoryOf(t, e) != DeviceCategory::kCommunication) continue;
    CollectiveCall c;
    std::string_view name = t.str(ev.trace_name[e]);
    c.kind = CollectiveKindOfKernel(name);
    c.label = c.kind == CollectiveKind::kOther ? ShortKernelName(name) : CollectiveKindName(c.kind);
    c.start_ns = ev.start_ns[e];
    c.end_ns = ev.end_ns[e];
    out.push_back(std::move(c));
  }
  // Events are sorted by (start, -end) already; a stable sort keeps that for equal starts.
  std::stable_sort(out.begin(), out.end(), [](const CollectiveCall& a, const CollectiveCall& b) {
    return a.start_ns < b.start_ns;
  });
  return out;
}

}  // namespace profana::job
