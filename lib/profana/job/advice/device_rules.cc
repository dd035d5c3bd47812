// The rules about what the device does and waits for: launch overhead, small kernels, copies,
// the optimizer's kernels, communication, idle time. docs/advise.md defines each.
#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>

#include "fmt/format.h"
#include "profana/job/advice/advice_rules.h"
#include "profana/model/event_roles.h"

namespace profana::job::advice {
namespace {

bool Has(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// Device work inside steps (its launch, or its own start, in a step), per stream by start.
std::map<uint32_t, std::vector<uint32_t>> WorkByStream(const AdviceContext& c) {
  const EventTable& ev = c.trace->events;
  std::map<uint32_t, std::vector<uint32_t>> out;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (IsDeviceWork(ev.kind[e]) && LaunchedInSteps(c, e)) out[ev.thread[e].value].push_back(e);
  }
  return out;
}

}  // namespace

bool LaunchBound(const AdviceContext& c, Finding* f) {
  const EventTable& ev = c.trace->events;
  // HTA's idle breakdown, whole devices: host wait is the GPU idle while the host had not yet
  // launched the next kernel.
  int64_t host_wait = 0, window = 0;
  for (const passes::IdleTrack& tr : c.idle.tracks)
    if (tr.whole_device) {
      host_wait += tr.gap_ns[static_cast<int>(passes::GapKind::kHostWait)];
      window += tr.window_ns;
    }
  int64_t kernels = 0, kernel_ns = 0, launch_ns = 0;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (ev.kind[e] != ActivityKind::kKernel) continue;
    ++kernels;
    kernel_ns += ev.end_ns[e] - ev.start_ns[e];
    if (auto l = c.launches->Launch(ev.correlation[e]))
      launch_ns += ev.end_ns[l->value] - ev.start_ns[l->value];
  }
  if (kernels == 0) return false;
  double share = Share(host_wait, window);
  int64_t mean_kernel = kernel_ns / kernels;
  // Launch-bound: the GPU waits on the host for a good share of its time, and the kernels are
  // short (a launch costs a few us; kernels under 50 us cannot hide it).
  if (share < 0.10 || mean_kernel >= 50'000) return false;
  // On the critical path, the launch delays and the host's own time are what a graph removes.
  int64_t on_path = 0;
  for (const passes::CpWindowResult& w : c.critical_path.windows)
    on_path += w.bound_ns[static_cast<int>(passes::CpBound::kLaunchDelay)] +
               w.bound_ns[static_cast<int>(passes::CpBound::kCpu)];
  f->count = kernels;
  f->raw_saving_ns = c.critical_path.windows.empty() ? host_wait : std::min(host_wait, on_path);
  for (const StepRow& s : c.steps) f->steps.push_back(s.step);
  f->items.push_back({"host wait (GPU idle, next kernel not launched yet)", 0, host_wait});
  f->items.push_back({"launch calls", kernels, launch_ns});
  f->evidence = fmt::format(
      "the GPU waited for the host {} ({:.1f}% of the device's active window); {} kernels "
      "averaged {} each, their launch calls {}",
      TimeText(host_wait), 100 * share, kernels, TimeText(mean_kernel),
      TimeText(launch_ns / kernels));
  return true;
}

bool SmallKernels(const AdviceContext& c, Finding* f) {
  const Trace& t = *c.trace;
  const EventTable& ev = t.events;
  int64_t total_ns = 0, small_ns = 0, small = 0, all = 0, gaps = 0;
  Items items;
  std::vector<int64_t> starts;
  for (auto& [stream, work] : WorkByStream(c)) {
    int64_t prev_end = INT64_MIN;
    for (uint32_t e : work) {
      int64_t d = ev.end_ns[e] - ev.start_ns[e];
      total_ns += d;
      ++all;
      if (ev.kind[e] == ActivityKind::kKernel && d < c.options.small_kernel_ns) {
        ++small;
        small_ns += d;
        items.Add(NameOf(t, e), d);
        starts.push_back(ev.start_ns[e]);
        // The gap before it, when short (launch overhead between back-to-back kernels).
        if (prev_end != INT64_MIN && ev.start_ns[e] > prev_end &&
            ev.start_ns[e] - prev_end < passes::kHtaConsecutiveKernelDelayNs)
          gaps += ev.start_ns[e] - prev_end;
      }
      prev_end = std::max(prev_end, ev.end_ns[e]);
    }
  }
  // Most of the kernels small, and a share of the device time worth fusing.
  if (small < 100 || Share(small, all) < 0.5 || Share(small_ns, total_ns) < c.options.min_share)
    return false;
  f->count = small;
  f->raw_saving_ns = gaps;
  f->steps = StepsOf(c, starts);
  f->items = items.Top(c.options.max_items);
  f->evidence = fmt::format(
      "{} of {} kernels ran under {} ({:.1f}% of device time, {}); the gaps before them add {}",
      small, all, TimeText(c.options.small_kernel_ns), 100 * Share(small_ns, total_ns),
      TimeText(small_ns), TimeText(gaps));
  return true;
}

namespace {

// The memcpys inside steps that `pick` keeps (it sees the stream's work too), with their time,
// contributors and starts written into the finding.
template <typename Pick>
int64_t Copies(const AdviceContext& c, Finding* f, Pick pick) {
  const Trace& t = *c.trace;
  const EventTable& ev = t.events;
  int64_t ns = 0;
  Items items;
  std::vector<int64_t> starts;
  for (auto& [stream, work] : WorkByStream(c))
    for (uint32_t e : work) {
      if (ev.kind[e] != ActivityKind::kMemcpy || !pick(e, work)) continue;
      ++f->count;
      ns += ev.end_ns[e] - ev.start_ns[e];
      items.Add(NameOf(t, e), ev.end_ns[e] - ev.start_ns[e]);
      starts.push_back(ev.start_ns[e]);
    }
  f->steps = StepsOf(c, starts);
  f->items = items.Top(c.options.max_items);
  return ns;
}

}  // namespace

bool PageableMemcpy(const AdviceContext& c, Finding* f) {
  const Trace& t = *c.trace;
  int64_t ns = Copies(c, f, [&](uint32_t e, const std::vector<uint32_t>&) {
    return Has(NameOf(t, e), "Pageable");
  });
  if (f->count == 0) return false;
  // Pinned copies run at about twice the bandwidth of pageable ones (they skip the staging
  // copy) and do not block the host: half their time is the estimate.
  f->raw_saving_ns = ns / 2;
  f->evidence = fmt::format("{} copies between pageable host memory and the device took {}",
                            f->count, TimeText(ns));
  return true;
}

bool UnoverlappedCopy(const AdviceContext& c, Finding* f) {
  const Trace& t = *c.trace;
  const EventTable& ev = t.events;
  int64_t ns = Copies(c, f, [&](uint32_t e, const std::vector<uint32_t>& work) {
    std::string_view name = NameOf(t, e);
    if (!Has(name, "HtoD") && !Has(name, "DtoH")) return false;
    // A copy on a stream that also computes holds that computation back.
    return std::any_of(work.begin(), work.end(), [&](uint32_t k) {
      return ev.kind[k] == ActivityKind::kKernel &&
             CategoryOf(t, k) == DeviceCategory::kComputation;
    });
  });
  if (f->count == 0) return false;
  f->raw_saving_ns = ns;
  f->evidence = fmt::format(
      "{} host-device copies ran on streams that also compute, {} during which those streams "
      "could not compute",
      f->count, TimeText(ns));
  return true;
}

bool UnfusedOptimizer(const AdviceContext& c, Finding* f) {
  const Trace& t = *c.trace;
  const EventTable& ev = t.events;
  // Optimizer.step#<Name>.step windows, per thread.
  struct Window {
    int64_t start, end;
    uint32_t thread;
  };
  std::vector<Window> windows;
  for (uint32_t e = 0; e < ev.size(); ++e)
    if (IsOpOrAnnotation(ev.kind[e]) && NameOf(t, e).rfind("Optimizer.step", 0) == 0)
      windows.push_back({ev.start_ns[e], ev.end_ns[e], ev.thread[e].value});
  if (windows.empty()) return false;
  int64_t kernels = 0, launch_ns = 0;
  bool fused = false;
  Items items;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (!IsDeviceWork(ev.kind[e])) continue;
    auto l = c.launches->Launch(ev.correlation[e]);
    if (!l) continue;
    uint32_t call = l->value;
    bool inside = false;
    for (const Window& w : windows)
      inside |= w.thread == ev.thread[call].value && ev.start_ns[call] >= w.start &&
                ev.start_ns[call] < w.end;
    if (!inside) continue;
    std::string_view name = NameOf(t, e);
    fused |= Has(name, "multi_tensor_apply") || Has(name, "fused") || Has(name, "Fused");
    ++kernels;
    launch_ns += ev.end_ns[call] - ev.start_ns[call];
    items.Add(name, ev.end_ns[e] - ev.start_ns[e]);
  }
  int64_t per_step = kernels / static_cast<int64_t>(windows.size());
  // foreach / fused optimizers launch a few multi-tensor kernels per step; a per-parameter loop
  // launches several per parameter.
  if (fused || per_step < 50) return false;
  f->count = kernels;
  // A fused optimizer replaces the launches with a handful: their host time is the saving.
  f->raw_saving_ns = launch_ns;
  for (const Window& w : windows)
    if (int64_t s = c.StepAt(w.start); s >= 0) f->steps.push_back(s);
  f->items = items.Top(c.options.max_items);
  f->evidence = fmt::format(
      "{} optimizer steps launched {} kernels ({} per step), none multi-tensor; their launch "
      "calls took {}",
      windows.size(), kernels, per_step, TimeText(launch_ns));
  return true;
}

bool ExposedComm(const AdviceContext& c, Finding* f) {
  int64_t exposed = 0, comm = 0;
  for (const StepRow& s : c.steps) {
    int64_t step_exposed = 0;
    for (const StepDevice& d : s.devices) {
      step_exposed += d.comm_exposed_ns;
      comm += d.comm_ns;
    }
    if (step_exposed > 0) f->steps.push_back(s.step);
    exposed += step_exposed;
  }
  if (exposed <= 0 || Share(exposed, c.steps_wall_ns) < c.options.min_share) return false;
  f->count = static_cast<int64_t>(f->steps.size());
  f->raw_saving_ns = exposed;
  f->items.push_back({"exposed communication", f->count, exposed});
  f->evidence = fmt::format(
      "{} of communication ran with no computation beside it ({:.1f}% of the steps' wall time; "
      "{:.1f}% of all communication)",
      TimeText(exposed), 100 * Share(exposed, c.steps_wall_ns), 100 * Share(exposed, comm));
  return true;
}

bool GpuIdle(const AdviceContext& c, Finding* f) {
  int64_t idle = 0;
  for (const StepRow& s : c.steps) {
    int64_t step_idle = 0;
    for (const StepDevice& d : s.devices)
      if (d.device >= 0) step_idle += d.idle_ns;
    if (step_idle > 0) f->steps.push_back(s.step);
    idle += step_idle;
  }
  // Share of the steps' wall time, which is per device; the busiest device counts once per step.
  int64_t devices = 0;
  for (const StepRow& s : c.steps)
    for (const StepDevice& d : s.devices) devices += d.device >= 0;
  int64_t wall = 0;
  for (const StepRow& s : c.steps)
    for (const StepDevice& d : s.devices)
      if (d.device >= 0) wall += s.wall_ns;
  if (devices == 0 || Share(idle, wall) < 0.20) return false;
  f->count = static_cast<int64_t>(f->steps.size());
  f->raw_saving_ns = idle * c.steps_wall_ns / std::max<int64_t>(wall, 1);
  int64_t by[3] = {0, 0, 0};
  for (const passes::IdleTrack& tr : c.idle.tracks)
    if (tr.whole_device)
      for (int k = 0; k < 3; ++k) by[k] += tr.gap_ns[k];
  for (int k = 0; k < 3; ++k)
    if (by[k] > 0)
      f->items.push_back({passes::GapKindName(static_cast<passes::GapKind>(k)), 0, by[k]});
  std::stable_sort(f->items.begin(), f->items.end(),
                   [](const FindingItem& a, const FindingItem& b) { return a.ns > b.ns; });
  f->evidence = fmt::format("the GPU was idle {:.1f}% of the steps' wall time ({})",
                            100 * Share(idle, wall), TimeText(idle));
  return true;
}

}  // namespace profana::job::advice
