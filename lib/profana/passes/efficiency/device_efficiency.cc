#include "profana/passes/efficiency/device_efficiency.h"

#include <algorithm>
#include <map>

#include "profana/model/activity_device.h"
#include "profana/model/device_of.h"
#include "profana/passes/efficiency/op_flops.h"
#include "profana/passes/efficiency/tensor_cores.h"

namespace profana::passes {
namespace {

const DeviceArgsTable* ArgsOf(const Trace& t, uint32_t e, uint32_t* row) {
  *row = t.events.device_args[e];
  return *row == kNoDeviceArgs ? nullptr : &t.device_args;
}

// One kernel's contribution to its device's SM efficiency: [start, end) with its blocks per SM.
struct Endpoint {
  int64_t time;
  bool end;  // ends sort after starts at the same time (range_utils' EndpointTypes)
  double value;
};

// The plugin's merged ranges of one device: (start, end, min(sum, 1)) where the sum is above 0.
struct Range {
  int64_t start, end;
  double value;
};

std::vector<Range> MergeRangesWithValue(std::vector<Endpoint> points) {
  std::stable_sort(points.begin(), points.end(), [](const Endpoint& a, const Endpoint& b) {
    return a.time != b.time ? a.time < b.time : a.end < b.end;
  });
  std::vector<Range> out;
  if (points.empty()) return out;
  int64_t last_time = points[0].time;
  double last_value = points[0].value;
  for (size_t i = 1; i < points.size(); ++i) {
    const Endpoint& p = points[i];
    if (p.time > last_time && last_value > 0.0)
      out.push_back({last_time, p.time, std::min(last_value, 1.0)});
    last_time = p.time;
    last_value += p.end ? -p.value : p.value;
  }
  return out;
}

// The integral of the ranges' values over [start, end), in ns.
double Integral(const std::vector<Range>& ranges, int64_t start, int64_t end) {
  auto it = std::upper_bound(ranges.begin(), ranges.end(), start,
                             [](int64_t t, const Range& r) { return t < r.end; });
  double total = 0;
  for (; it != ranges.end() && it->start < end; ++it)
    total += it->value * static_cast<double>(std::min(end, it->end) - std::max(start, it->start));
  return total;
}

}  // namespace

const char* CopyDirectionName(CopyDirection d) {
  switch (d) {
    case CopyDirection::kHtoD:
      return "htod";
    case CopyDirection::kDtoH:
      return "dtoh";
    case CopyDirection::kDtoD:
      return "dtod";
    case CopyDirection::kHtoH:
      return "htoh";
    case CopyDirection::kPtoP:
      return "ptop";
    case CopyDirection::kOther:
      return "other";
    case CopyDirection::kMemset:
      return "memset";
  }
  return "other";
}

CopyDirection CopyDirectionOf(const Trace& t, uint32_t e) {
  if (t.events.kind[e] == ActivityKind::kMemset) return CopyDirection::kMemset;
  uint32_t row;
  CopyKind kind = ArgsOf(t, e, &row) ? t.device_args.copy[row] : CopyKind::kUnknown;
  if (kind == CopyKind::kUnknown) kind = CopyKindsOfName(t.str(t.events.trace_name[e])).kind;
  switch (kind) {
    case CopyKind::kHtoD:
      return CopyDirection::kHtoD;
    case CopyKind::kDtoH:
      return CopyDirection::kDtoH;
    case CopyKind::kDtoD:
      return CopyDirection::kDtoD;
    case CopyKind::kHtoH:
      return CopyDirection::kHtoH;
    case CopyKind::kPtoP:
      return CopyDirection::kPtoP;
    default:
      return CopyDirection::kOther;
  }
}

double BlocksPerSm(const Trace& t, uint32_t e) {
  uint32_t row;
  const DeviceArgsTable* a = ArgsOf(t, e, &row);
  if (!a) return -1;
  if (a->blocks_per_sm[row] >= 0) return a->blocks_per_sm[row];
  int32_t gx = a->grid_x[row], gy = a->grid_y[row], gz = a->grid_z[row];
  const DeviceProperties* p = PropertiesOf(t.metadata, ActivityDevice(t, e));
  if (gx < 0 || gy < 0 || gz < 0 || !p || p->num_sms <= 0) return -1;
  // Kineto's blocksPerSm: the grid's blocks over the SMs, in float (CuptiActivity.cpp).
  return static_cast<double>(static_cast<float>(int64_t{gx} * gy * gz) /
                             static_cast<float>(p->num_sms));
}

double OccupancyOf(const Trace& t, uint32_t e) {
  uint32_t row;
  return ArgsOf(t, e, &row) ? t.device_args.occupancy[row] : -1;
}

int64_t BytesOf(const Trace& t, uint32_t e) {
  uint32_t row;
  return ArgsOf(t, e, &row) ? t.device_args.bytes[row] : -1;
}

void CopyTotals::Add(const CopyTotals& o) {
  for (size_t d = 0; d < kCopyDirections; ++d) {
    count[d] += o.count[d];
    bytes[d] += o.bytes[d];
    ns[d] += o.ns[d];
  }
  pageable_bytes += o.pageable_bytes;
  pinned_bytes += o.pinned_bytes;
}

std::vector<std::vector<WindowEfficiency>> ComputeWindowEfficiency(
    const Trace& t, const std::vector<TimeWindow>& windows) {
  const EventTable& ev = t.events;
  std::vector<std::map<int32_t, WindowEfficiency>> per_window(windows.size());
  std::map<int32_t, std::vector<Endpoint>> points;  // by device
  TensorCoreNames tensor_cores(t);
  // The first window whose end lies after `time`.
  auto first_window = [&](int64_t time) {
    return std::upper_bound(windows.begin(), windows.end(), time,
                            [](int64_t x, const TimeWindow& w) { return x < w.end; }) -
           windows.begin();
  };
  for (uint32_t e = 0; e < ev.size(); ++e) {
    ActivityKind kind = ev.kind[e];
    if (!IsDeviceWork(kind)) continue;
    int32_t device = ActivityDevice(t, e);
    int64_t start = ev.start_ns[e], end = ev.end_ns[e];
    if (kind != ActivityKind::kKernel) {
      size_t w = static_cast<size_t>(first_window(start));
      if (w == windows.size() || start < windows[w].start) continue;
      WindowEfficiency& out = per_window[w][device];
      out.device = device;
      CopyTotals& c = out.use.copies;
      auto d = static_cast<size_t>(CopyDirectionOf(t, e));
      ++c.count[d];
      int64_t bytes = BytesOf(t, e);
      if (bytes < 0) continue;
      c.bytes[d] += bytes;
      c.ns[d] += end - start;
      uint32_t row = ev.device_args[e];
      MemoryKind src = t.device_args.copy_src[row], dst = t.device_args.copy_dst[row];
      if (src == MemoryKind::kPageable || dst == MemoryKind::kPageable) c.pageable_bytes += bytes;
      if (src == MemoryKind::kPinned || dst == MemoryKind::kPinned) c.pinned_bytes += bytes;
      continue;
    }
    double blocks = BlocksPerSm(t, e);
    if (blocks > 0) {
      points[device].push_back({start, false, blocks});
      points[device].push_back({end, true, blocks});
    }
    double occupancy = OccupancyOf(t, e);
    bool tensor = tensor_cores.Uses(ev.trace_name[e]);
    for (size_t w = static_cast<size_t>(first_window(start));
         w < windows.size() && windows[w].start < end; ++w) {
      int64_t inside = std::min(end, windows[w].end) - std::max(start, windows[w].start);
      if (inside <= 0) continue;
      WindowEfficiency& out = per_window[w][device];
      out.device = device;
      out.use.kernel_ns += inside;
      if (tensor) out.use.tensor_core_ns += inside;
      if (occupancy >= 0) {
        out.use.occupancy_ns += occupancy * static_cast<double>(inside);
        out.use.occupancy_weight_ns += inside;
      }
    }
  }
  for (const OpDeviceFlops& o : FlopsOnDevices(t)) {
    size_t w = static_cast<size_t>(first_window(o.first_kernel_ns));
    if (w == windows.size() || o.first_kernel_ns < windows[w].start) continue;
    WindowEfficiency& out = per_window[w][o.device];
    out.device = o.device;
    auto flops = static_cast<double>(o.flops);
    out.use.flops += flops;
    if (o.peak_ns >= 0)
      out.use.peak_ns += o.peak_ns;
    else
      out.use.unpeaked_flops += flops;
  }
  for (auto& [device, device_points] : points) {
    std::vector<Range> ranges = MergeRangesWithValue(std::move(device_points));
    for (size_t w = 0; w < windows.size(); ++w) {
      auto it = per_window[w].find(device);
      if (it == per_window[w].end()) continue;
      it->second.use.sm_busy_ns = Integral(ranges, windows[w].start, windows[w].end);
    }
  }
  std::vector<std::vector<WindowEfficiency>> out(windows.size());
  for (size_t w = 0; w < windows.size(); ++w)
    for (auto& [device, e] : per_window[w]) out[w].push_back(e);
  return out;
}

}  // namespace profana::passes
