// The rules about what the host does: synchronisations, synchronous copies and memsets, waiting
// for data, the allocator. docs/advise.md defines each.
#include <algorithm>
#include <map>
#include <string_view>

#include "fmt/format.h"
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
  // Fragmentation: at the peak of reserved memory, the share reserved but not allocated.
  const MemoryTable& m = t.memory;
  int64_t peak_reserved = 0, allocated_then = 0;
  for (size_t i = 0; i < m.size(); ++i)
    if (m.device_type[i] == 1 && m.total_reserved[i] != kNoId &&
        m.total_reserved[i] > peak_reserved && m.total_allocated[i] != kNoId) {
      peak_reserved = m.total_reserved[i];
      allocated_then = m.total_allocated[i];
    }
  double unused = peak_reserved > 0 ? 1.0 - static_cast<double>(allocated_then) /
                                                static_cast<double>(peak_reserved)
                                    : 0;
  bool fragmented = peak_reserved >= (int64_t{1} << 30) && unused >= 0.3;
  if (churn == 0 && !fragmented) return false;
  f->count = churn;
  f->raw_saving_ns = churn_ns;
  f->steps = StepsOf(c, starts);
  f->items = items.Top(c.options.max_items);
  f->evidence = fmt::format("{} cudaMalloc/cudaFree calls after the first step took {}", churn,
                            TimeText(churn_ns));
  if (peak_reserved > 0)
    f->evidence += fmt::format("; at the peak, {:.1f}% of the {:.2f} GB reserved was not allocated",
                               100 * unused, static_cast<double>(peak_reserved) / 1e9);
  return true;
}

}  // namespace profana::job::advice
