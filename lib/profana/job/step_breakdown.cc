#include "profana/job/step_breakdown.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string_view>
#include <unordered_map>

#include "profana/job/intervals.h"
#include "profana/model/activity_device.h"

namespace profana::job {
namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

struct DeviceUnions {
  std::vector<Interval> compute, comm, memory;
  std::vector<Interval> compute_or_comm, all;
  std::vector<Interval> copies;  // each memcpy and memset, as it ran
};

// Host intervals of one thread, by what they are.
struct HostUnions {
  std::vector<Interval> traced, dataloader, optimizer, sync;
};

}  // namespace

std::vector<StepRow> ComputeStepBreakdown(const Trace& t, StepDeviceUse use) {
  const EventTable& ev = t.events;
  // The steps: one marker per N (the first, when a trace repeats one), in start order.
  std::map<int64_t, uint32_t> first_of_step;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    int64_t n = StepNumberOf(t, e);
    if (n >= 0) first_of_step.try_emplace(n, e);
  }
  std::vector<std::pair<int64_t, uint32_t>> steps(first_of_step.begin(), first_of_step.end());
  std::stable_sort(steps.begin(), steps.end(), [&](const auto& a, const auto& b) {
    return ev.start_ns[a.second] < ev.start_ns[b.second];
  });
  if (steps.empty()) return {};

  // The step whose marker holds time ts, or -1.
  auto step_at = [&](int64_t ts) -> int64_t {
    auto it = std::upper_bound(steps.begin(), steps.end(), ts,
                               [&](int64_t x, const auto& s) { return x < ev.start_ns[s.second]; });
    if (it == steps.begin()) return -1;
    --it;
    return ts < ev.end_ns[it->second] ? it - steps.begin() : -1;
  };

  std::unordered_map<int64_t, int64_t> launch_time;  // correlation -> runtime call start
  for (uint32_t e = 0; e < ev.size(); ++e)
    if (IsRuntimeOrDriver(ev.kind[e]) && ev.correlation[e] != kNoId)
      launch_time.try_emplace(ev.correlation[e], ev.start_ns[e]);

  std::vector<int64_t> launched_end(steps.size(), std::numeric_limits<int64_t>::min());
  std::map<int32_t, DeviceUnions> devices;
  std::unordered_map<uint32_t, HostUnions> hosts;
  for (const auto& s : steps) hosts[ev.thread[s.second].value];
  for (uint32_t e = 0; e < ev.size(); ++e) {
    DeviceCategory c = CategoryOf(t, e);
    Interval iv{ev.start_ns[e], ev.end_ns[e]};
    if (c != DeviceCategory::kNone) {
      DeviceUnions& d = devices[ActivityDevice(t, e)];
      (c == DeviceCategory::kComputation     ? d.compute
       : c == DeviceCategory::kCommunication ? d.comm
                                             : d.memory)
          .push_back(iv);
      if (c == DeviceCategory::kMemory) d.copies.push_back(iv);
      auto launch =
          ev.correlation[e] == kNoId ? launch_time.end() : launch_time.find(ev.correlation[e]);
      int64_t s = step_at(launch == launch_time.end() ? iv.first : launch->second);
      if (s >= 0) launched_end[s] = std::max(launched_end[s], iv.second);
      continue;
    }
    auto host = hosts.find(ev.thread[e].value);
    if (host == hosts.end() || IsDeviceActivity(ev.kind[e])) continue;
    ActivityKind k = ev.kind[e];
    std::string_view name = t.str(ev.trace_name[e]);
    bool runtime = IsRuntimeOrDriver(k);
    if (!IsOpOrAnnotation(k) && !runtime) continue;
    if (StepNumberOf(t, e) >= 0) continue;
    HostUnions& h = host->second;
    h.traced.push_back(iv);
    if (StartsWith(name, "enumerate(DataLoader)")) h.dataloader.push_back(iv);
    if (StartsWith(name, "Optimizer.step") || StartsWith(name, "Optimizer.zero_grad"))
      h.optimizer.push_back(iv);
    if (runtime && name.size() >= 11 && name.substr(name.size() - 11) == "Synchronize")
      h.sync.push_back(iv);
  }
  for (auto& [id, d] : devices) {
    std::sort(d.copies.begin(), d.copies.end());
    MakeUnion(&d.compute);
    MakeUnion(&d.comm);
    MakeUnion(&d.memory);
    d.compute_or_comm = UnionOf(d.compute, d.comm);
    d.all = UnionOf(d.compute_or_comm, d.memory);
  }
  for (auto& [id, h] : hosts) {
    MakeUnion(&h.traced);
    MakeUnion(&h.dataloader);
    MakeUnion(&h.optimizer);
    MakeUnion(&h.sync);
  }

  std::vector<StepRow> rows;
  rows.reserve(steps.size());
  int64_t previous_end = std::numeric_limits<int64_t>::min();
  for (size_t i = 0; i < steps.size(); ++i) {
    uint32_t e = steps[i].second;
    int64_t start = std::max(ev.start_ns[e], previous_end);
    int64_t end = std::max({ev.end_ns[e], launched_end[i], start});
    previous_end = end;
    StepRow r;
    r.step = steps[i].first;
    r.start_ns = start;
    r.wall_ns = end - start;
    int64_t hs = ev.start_ns[e], he = ev.end_ns[e];
    r.host_ns = he - hs;
    const HostUnions& h = hosts[ev.thread[e].value];
    r.host_untraced_ns = r.host_ns - Measure(h.traced, hs, he);
    r.host_dataloader_ns = Measure(h.dataloader, hs, he);
    r.host_optimizer_ns = Measure(h.optimizer, hs, he);
    r.host_sync_ns = Measure(h.sync, hs, he);
    for (const auto& [id, d] : devices) {
      StepDevice sd;
      sd.device = id;
      // The copies that start in the window: a copy during which no computation ran on its
      // device stalls it (a zero-length one: none at its instant).
      auto first = std::lower_bound(d.copies.begin(), d.copies.end(), Interval{start, start});
      for (auto c = first; c != d.copies.end() && c->first < end; ++c) {
        int64_t ns = c->second - c->first;
        if (Measure(d.compute, c->first, std::max(c->second, c->first + 1)) > 0) {
          ++sd.copy_overlap_count;
          sd.copy_overlap_ns += ns;
        } else {
          ++sd.copy_stall_count;
          sd.copy_stall_ns += ns;
        }
      }
      sd.compute_ns = Measure(d.compute, start, end);
      int64_t cc = Measure(d.compute_or_comm, start, end);
      int64_t all = Measure(d.all, start, end);
      sd.comm_exposed_ns = cc - sd.compute_ns;
      sd.memory_exposed_ns = all - cc;
      sd.idle_ns = r.wall_ns - all;
      sd.comm_ns = Measure(d.comm, start, end);
      sd.comm_hidden_ns = sd.comm_ns - sd.comm_exposed_ns;
      sd.memory_ns = Measure(d.memory, start, end);
      r.devices.push_back(sd);
    }
    if (r.devices.empty()) r.devices.push_back(StepDevice{});
    rows.push_back(std::move(r));
  }
  if (use == StepDeviceUse::kMeasure) {
    // What each device did with each window (the windows are in start order and do not overlap).
    std::vector<passes::TimeWindow> windows;
    for (const StepRow& r : rows) windows.push_back({r.start_ns, r.start_ns + r.wall_ns});
    std::vector<std::vector<passes::WindowEfficiency>> efficiency =
        passes::ComputeWindowEfficiency(t, windows);
    for (size_t i = 0; i < rows.size(); ++i) {
      for (const passes::WindowEfficiency& w : efficiency[i]) {
        for (StepDevice& sd : rows[i].devices)
          if (sd.device == w.device) sd.use = w.use;
      }
    }
  }
  std::sort(rows.begin(), rows.end(),
            [](const StepRow& a, const StepRow& b) { return a.step < b.step; });
  return rows;
}

}  // namespace profana::job
