// The rules about what the host does: synchronisations, synchronous copies and memsets, waiting
// for data, the allocator. docs/advise.md defines each.
#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "fmt/format.h"
#include "profana/base/byte_size.h"
#include "profana/job/advice/advice_rules.h"
#include "profana/passes/innermost_op.h"

namespace profana::job::advice {
namespace {

bool OneOf(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Host runtime calls named in `names` inside steps: their count, host time, and the op that made
// each (the innermost CPU op around it).
struct Calls {
  int64_t count = 0, ns = 0;
  std::vector<uint32_t> events;
  std::vector<int64_t> starts;
  Items items;
};

Calls FindCalls(const AdviceContext& c, std::initializer_list<std::string_view> names) {
  const Trace& t = *c.trace;
  const EventTable& ev = t.events;
  passes::InnermostOpFinder ops(t, *c.events, passes::InnermostOpFinder::Interval::kHalfOpen);
  Calls out;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    if (!IsRuntimeOrDriver(ev.kind[e]) || !OneOf(NameOf(t, e), names)) continue;
    if (!c.InSteps(ev.start_ns[e])) continue;
    int64_t ns = ev.end_ns[e] - ev.start_ns[e];
    ++out.count;
    out.ns += ns;
    out.events.push_back(e);
    out.starts.push_back(ev.start_ns[e]);
    // The op that called it: the innermost CPU op (not the call itself) around its start.
    std::string_view who = NameOf(t, e);
    if (auto op = ops.At(ev.thread[e], ev.start_ns[e] - 1))
      who = t.str(c.events->trace_name[op->value]);
    out.items.Add(who, ns);
  }
  return out;
}

}  // namespace

bool HostSync(const AdviceContext& c, Finding* f) {
  const Trace& t = *c.trace;
  const EventTable& ev = t.events;
  Calls calls =
      FindCalls(c, {"cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize",
                    "hipStreamSynchronize", "hipDeviceSynchronize", "hipEventSynchronize"});
  if (calls.count == 0) return false;
  // The GPU idle each causes: from the call's end to the next device work (any stream), when
  // nothing ran on the device then: the queue was drained and the host had to refill it.
  std::vector<std::pair<int64_t, int64_t>> work;
  for (uint32_t e = 0; e < ev.size(); ++e)
    if (IsDeviceWork(ev.kind[e])) work.push_back({ev.start_ns[e], ev.end_ns[e]});
  std::sort(work.begin(), work.end());
  std::vector<int64_t> max_end(work.size());
  for (size_t i = 0; i < work.size(); ++i)
    max_end[i] = std::max(i ? max_end[i - 1] : INT64_MIN, work[i].second);
  int64_t idle = 0;
  for (uint32_t e : calls.events) {
    int64_t end = ev.end_ns[e];
    auto next = std::lower_bound(work.begin(), work.end(), std::make_pair(end, INT64_MIN));
    if (next == work.end()) continue;
    size_t k = static_cast<size_t>(next - work.begin());
    bool busy = k > 0 && max_end[k - 1] > end;
    int64_t step = c.StepAt(end);
    bool same_step = step < 0 || c.StepAt(next->first) == step;
    if (!busy && same_step) idle += next->first - end;
  }
  f->count = calls.count;
  f->raw_saving_ns = idle;
  f->steps = StepsOf(c, calls.starts);
  f->items = calls.items.Top(c.options.max_items);
  f->evidence = fmt::format(
      "{} synchronize calls inside steps blocked the host for {}; the GPU then sat idle {} until "
      "the host launched again",
      calls.count, TimeText(calls.ns), TimeText(idle));
  return true;
}

namespace {

// Synchronous calls (nsys cuda_memcpy_sync, cuda_memset_sync): their host time is the saving.
bool SynchronousCalls(const AdviceContext& c, Finding* f,
                      std::initializer_list<std::string_view> names, const char* what) {
  Calls calls = FindCalls(c, names);
  if (calls.count == 0) return false;
  f->count = calls.count;
  f->raw_saving_ns = calls.ns;
  f->steps = StepsOf(c, calls.starts);
  f->items = calls.items.Top(c.options.max_items);
  f->evidence = fmt::format("{} synchronous {} calls held the host for {}", calls.count, what,
                            TimeText(calls.ns));
  return true;
}

}  // namespace

bool SyncMemcpy(const AdviceContext& c, Finding* f) {
  return SynchronousCalls(
      c, f,
      {"cudaMemcpy", "cudaMemcpy2D", "cudaMemcpy3D", "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol",
       "cudaMemcpyPeer", "hipMemcpy", "hipMemcpy2D", "hipMemcpyToSymbol", "hipMemcpyFromSymbol"},
      "memcpy");
}

bool SyncMemset(const AdviceContext& c, Finding* f) {
  return SynchronousCalls(
      c, f, {"cudaMemset", "cudaMemset2D", "cudaMemset3D", "hipMemset", "hipMemset2D"}, "memset");
}

bool Dataloader(const AdviceContext& c, Finding* f) {
  int64_t ns = 0;
  for (const StepRow& s : c.steps) {
    if (s.host_dataloader_ns <= 0) continue;
    ns += s.host_dataloader_ns;
    f->steps.push_back(s.step);
  }
  if (ns <= 0 || c.steps_wall_ns <= 0) return false;
  double share = static_cast<double>(ns) / static_cast<double>(c.steps_wall_ns);
  if (share < c.options.min_share) return false;
  f->count = static_cast<int64_t>(f->steps.size());
  f->raw_saving_ns = ns;
  f->items.push_back({"enumerate(DataLoader)", f->count, ns});
  f->evidence = fmt::format(
      "the main thread waited for the DataLoader {} in {} steps ({:.1f}% of "
      "their wall time)",
      TimeText(ns), f->count, 100 * share);
  return true;
}

namespace {

// The share of a device's memory (totalGlobalMem) at or above which reserved memory has no room
// left to grow: the CUDA context, cuBLAS/cuDNN workspaces and NCCL buffers live outside PyTorch's
// reserve and take from hundreds of MB to a few GB, so past 90 % of a 16-80 GB device the
// allocator's next cudaMalloc is likely to fail, and PyTorch's caching allocator then
// synchronises the device, frees every cached block (release_cached_blocks) and retries, or
// raises an out-of-memory error. docs/advise.md gives the rationale.
constexpr double kNearTotalMemoryShare = 0.9;

// The peak of reserved memory on one CUDA device: the first sample that reached it.
struct ReservedPeak {
  int64_t device = -1;
  int64_t reserved = 0, allocated = 0;
  int64_t ts_ns = 0;
  size_t row = 0;
};

std::vector<ReservedPeak> ReservedPeaks(const MemoryTable& m) {
  std::vector<ReservedPeak> peaks;
  for (size_t i = 0; i < m.size(); ++i) {
    if (m.device_type[i] != 1 || m.total_reserved[i] == kNoId || m.total_allocated[i] == kNoId)
      continue;
    auto it = std::find_if(peaks.begin(), peaks.end(),
                           [&](const ReservedPeak& p) { return p.device == m.device_id[i]; });
    if (it == peaks.end()) it = peaks.insert(peaks.end(), ReservedPeak{m.device_id[i]});
    if (m.total_reserved[i] > it->reserved)
      *it = {m.device_id[i], m.total_reserved[i], m.total_allocated[i], m.ts_ns[i], i};
  }
  return peaks;
}

int64_t TotalGlobalMem(const Trace& t, int64_t device) {
  for (const DeviceProperties& p : t.metadata.device_properties)
    if (p.id == device) return p.total_global_mem;
  return -1;
}

}  // namespace

bool MemoryHeadroom(const AdviceContext& c, Finding* f) {
  const Trace& t = *c.trace;
  // Churn: cudaMalloc / cudaFree in the steps after the first (the caching allocator should have
  // what a steady step needs by then).
  Calls calls = FindCalls(
      c, {"cudaMalloc", "cudaFree", "cudaMallocAsync", "cudaFreeAsync", "hipMalloc", "hipFree"});
  int64_t first_step = c.steps.empty() ? -1 : c.steps.front().step;
  int64_t churn = 0, churn_ns = 0;
  std::vector<int64_t> starts;
  Items items;
  for (size_t i = 0; i < calls.events.size(); ++i) {
    uint32_t e = calls.events[i];
    int64_t step = c.StepAt(t.events.start_ns[e]);
    if (c.steps.empty() || step == first_step) continue;
    ++churn;
    churn_ns += t.events.end_ns[e] - t.events.start_ns[e];
    starts.push_back(t.events.start_ns[e]);
    items.Add(NameOf(t, e), t.events.end_ns[e] - t.events.start_ns[e]);
  }
  std::vector<ReservedPeak> peaks = ReservedPeaks(t.memory);
  // Fragmentation: at the highest peak of reserved memory, the share reserved but not allocated.
  const ReservedPeak* top = nullptr;
  for (const ReservedPeak& p : peaks)
    if (!top || p.reserved > top->reserved || (p.reserved == top->reserved && p.row < top->row))
      top = &p;
  double unused = top && top->reserved > 0 ? 1.0 - static_cast<double>(top->allocated) /
                                                       static_cast<double>(top->reserved)
                                           : 0;
  bool fragmented = top && top->reserved >= (int64_t{1} << 30) && unused >= 0.3;
  // Headroom: the device whose peak comes nearest its totalGlobalMem.
  const ReservedPeak* near = nullptr;
  double near_share = 0;
  for (const ReservedPeak& p : peaks) {
    int64_t total = TotalGlobalMem(t, p.device);
    double share = Share(p.reserved, total);
    if (total > 0 && share >= kNearTotalMemoryShare && share > near_share) {
      near = &p;
      near_share = share;
    }
  }
  if (churn == 0 && !fragmented && !near) return false;
  if (near) starts.push_back(near->ts_ns);
  f->count = churn;
  f->raw_saving_ns = churn_ns;
  f->steps = StepsOf(c, starts);
  f->items = items.Top(c.options.max_items);
  std::vector<std::string> parts;
  if (churn > 0)
    parts.push_back(fmt::format("{} cudaMalloc/cudaFree calls after the first step took {}", churn,
                                TimeText(churn_ns)));
  if (near) {
    int64_t step = c.StepAt(near->ts_ns);
    int64_t total = TotalGlobalMem(t, near->device);
    parts.push_back(fmt::format(
        "{} reserved on cuda:{} at its peak{} is {:.1f}% of the device's {} (totalGlobalMem), {} "
        "from the limit",
        FormatBytes(near->reserved), near->device,
        step >= 0 ? fmt::format(" (step {})", step) : std::string(), 100 * near_share,
        FormatBytes(total), FormatBytes(total - near->reserved)));
  }
  if (top && top->reserved > 0)
    parts.push_back(fmt::format("at the peak, {:.1f}% of the {} reserved was not allocated",
                                100 * unused, FormatBytes(top->reserved)));
  f->evidence = fmt::format("{}", fmt::join(parts, "; "));
  return true;
}

}  // namespace profana::job::advice
