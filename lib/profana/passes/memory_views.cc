#include "profana/passes/memory_views.h"

#include <algorithm>

#include "fmt/format.h"

namespace profana::passes {

std::vector<MemoryDeviceView> ViewMemoryDevices(const Trace& trace, const FunctionEventList& events,
                                                const MemoryTimeline& t,
                                                const std::vector<uint32_t>& devices,
                                                unsigned parts) {
  std::vector<MemoryDeviceView> views;
  for (uint32_t d : devices) {
    MemoryDeviceView v;
    v.device = d;
    if (parts & kMemoryReport) v.report = AnalyzeMemoryDevice(trace, events, t, d);
    if (parts & kMemoryOps) {
      v.ops_by_self_alloc = MemoryByOp(trace, events, t, static_cast<int>(d));
      std::stable_sort(v.ops_by_self_alloc.begin(), v.ops_by_self_alloc.end(),
                       [](const MemoryOpRow& a, const MemoryOpRow& b) {
                         return a.self_alloc_bytes > b.self_alloc_bytes;
                       });
    }
    if (parts & kMemoryTimeline) v.timeline = CoalesceTimeline(trace, t, d);
    views.push_back(std::move(v));
  }
  return views;
}

Result<std::vector<uint32_t>> SelectMemoryDevices(const MemoryTimeline& t,
                                                  const std::string& name) {
  std::vector<uint32_t> devices;
  if (name.empty()) {
    for (uint32_t d = 0; d < t.devices.size(); ++d) devices.push_back(d);
    return devices;
  }
  int d = FindMemoryDevice(t, name);
  if (d >= 0) return std::vector<uint32_t>{static_cast<uint32_t>(d)};
  std::string have;
  for (const MemoryDevice& dev : t.devices)
    have += fmt::format("{}{}", have.empty() ? "" : ", ", dev.name);
  return Status(ErrorCode::kInvalidArgument,
                fmt::format("--device {}: no memory records on it (devices: {})", name,
                            have.empty() ? "none" : have));
}

uint32_t DefaultMemoryDevice(const MemoryTimeline& t) {
  uint32_t best = 0;
  for (uint32_t d = 1; d < t.devices.size(); ++d) {
    bool d_acc = t.devices[d].type != 0, best_acc = t.devices[best].type != 0;
    if (d_acc != best_acc ? d_acc : t.summary[d].peak_bytes > t.summary[best].peak_bytes) best = d;
  }
  return best;
}

}  // namespace profana::passes
