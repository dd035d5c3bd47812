#include "profana/passes/efficiency/op_flops.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "profana/model/activity_device.h"
#include "profana/model/device_of.h"
#include "profana/model/flop_inputs.h"
#include "profana/model/launch_index.h"
#include "profana/passes/efficiency/tensor_cores.h"
#include "profana/passes/flops.h"

namespace profana::passes {
namespace {

// The first tensor's "Input type" of an op's recorded FLOP inputs, empty when there is none.
std::string FirstTensorType(std::string_view joined) {
  std::vector<std::string> types, concrete;
  if (!ParseFlopInputLists(joined, &types, &concrete)) return {};
  for (std::string& t : types)
    if (!t.empty() && t != "Scalar" && t != "ScalarList" && t != "TensorList") return std::move(t);
  return {};
}

struct Counted {
  int64_t start, end;
  uint32_t op;  // index into the result
};

}  // namespace

std::vector<OpDeviceFlops> FlopsOnDevices(const Trace& t) {
  const EventTable& ev = t.events;
  EventFlops flops(t);
  if (!flops.any()) return {};
  // The outermost counted ops of each thread, in start order.
  std::unordered_map<uint32_t, std::vector<Counted>> by_thread;
  std::vector<uint32_t> order;
  for (uint32_t e = 0; e < ev.size(); ++e)
    if (flops.Of(EventId(e)) > 0) order.push_back(e);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return ev.start_ns[a] != ev.start_ns[b] ? ev.start_ns[a] < ev.start_ns[b]
                                            : ev.end_ns[a] > ev.end_ns[b];
  });
  std::vector<OpDeviceFlops> ops;
  std::vector<bool> tensor_cores;
  for (uint32_t e : order) {
    std::vector<Counted>& list = by_thread[ev.thread[e].value];
    if (!list.empty() && ev.start_ns[e] < list.back().end) continue;  // inside a counted op
    list.push_back({ev.start_ns[e], ev.end_ns[e], static_cast<uint32_t>(ops.size())});
    OpDeviceFlops o;
    o.op = EventId(e);
    o.flops = flops.Of(EventId(e));
    ops.push_back(o);
    tensor_cores.push_back(false);
  }
  // Each kernel to the counted op its launch ran in.
  LaunchIndex launches(ev);
  TensorCoreNames tc(t);
  std::vector<bool> launched(ops.size(), false);
  for (uint32_t k = 0; k < ev.size(); ++k) {
    if (ev.kind[k] != ActivityKind::kKernel) continue;
    std::optional<EventId> launch = launches.Launch(ev.correlation[k]);
    if (!launch) continue;
    auto list = by_thread.find(ev.thread[launch->value].value);
    if (list == by_thread.end()) continue;
    int64_t at = ev.start_ns[launch->value];
    auto it = std::upper_bound(list->second.begin(), list->second.end(), at,
                               [](int64_t x, const Counted& c) { return x < c.start; });
    if (it == list->second.begin() || at >= (--it)->end) continue;
    OpDeviceFlops& o = ops[it->op];
    if (!launched[it->op] || ev.start_ns[k] < o.first_kernel_ns) {
      o.first_kernel_ns = ev.start_ns[k];
      o.device = ActivityDevice(t, k);
    }
    launched[it->op] = true;
    if (tc.Uses(ev.trace_name[k])) tensor_cores[it->op] = true;
  }
  std::vector<OpDeviceFlops> out;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (!launched[i]) continue;
    OpDeviceFlops o = ops[i];
    const DevicePeak* device = PeakOfDevice(DeviceNameOf(t.metadata, o.device));
    PeakType type;
    StringId inputs = ev.flop_inputs[o.op.value];
    if (device && PeakTypeOf(FirstTensorType(t.str(inputs)), tensor_cores[i], &type) &&
        PeakFlops(*device, type) > 0)
      o.peak_ns = static_cast<double>(o.flops) / PeakFlops(*device, type) * 1e9;
    out.push_back(o);
  }
  std::sort(out.begin(), out.end(),
            [](const OpDeviceFlops& a, const OpDeviceFlops& b) { return a.op < b.op; });
  return out;
}

}  // namespace profana::passes
