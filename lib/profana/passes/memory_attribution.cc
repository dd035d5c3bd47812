// [memory] records count toward every CPU event whose closed interval holds them, on any thread
// (PyTorch's cpu_memory_usage / cuda_memory_usage, children included); records inside no event
// become top-level "[memory]" events of their own.
#include <algorithm>
#include <numeric>

#include "profana/passes/function_event_candidates.h"

namespace profana::passes {
namespace {

// PyTorch's device types of a [memory] record (c10 numbering): CPU memory is CPU, MKLDNN and IDEEP
// (0, 2, 5); device memory is CUDA, HIP and PrivateUse1 (1, 6, 20). Others count nowhere.
bool IsCpuMemory(int8_t dev) { return dev == 0 || dev == 2 || dev == 5; }
bool IsDeviceMemory(int8_t dev) { return dev == 1 || dev == 6 || dev == 20; }

}  // namespace

void AttributeMemory(Candidates* candidates) {
  Candidates& c = *candidates;
  const MemoryTable& mem = c.trace.memory;
  size_t n_events = c.size();
  c.cpu_mem.assign(n_events, 0);
  c.cuda_mem.assign(n_events, 0);
  if (mem.size() == 0) return;
  // Records sorted by time; prefix sums answer "bytes inside [start, end]" in two searches.
  std::vector<uint32_t> order(mem.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return mem.ts_ns[a] < mem.ts_ns[b]; });
  // Prefix sums wrap (unsigned) so that damaged byte counts near the int64 limit cannot overflow;
  // a range's difference is still exact whenever its true sum fits in int64.
  std::vector<int64_t> ts(mem.size());
  std::vector<uint64_t> cpu_prefix(mem.size() + 1, 0), cuda_prefix(mem.size() + 1, 0);
  for (size_t k = 0; k < order.size(); ++k) {
    uint32_t r = order[k];
    ts[k] = mem.ts_ns[r];
    int8_t dev = mem.device_type[r];
    cpu_prefix[k + 1] = cpu_prefix[k] + static_cast<uint64_t>(IsCpuMemory(dev) ? mem.bytes[r] : 0);
    cuda_prefix[k + 1] =
        cuda_prefix[k] + static_cast<uint64_t>(IsDeviceMemory(dev) ? mem.bytes[r] : 0);
  }
  std::vector<int32_t> cover(mem.size() + 1, 0);  // difference array: records inside some event
  // Events come by start time, so the first record of each only moves forward; the last is
  // found by galloping from there (events are short: a few records at most).
  size_t lo = 0;
  for (size_t i = 0; i < n_events; ++i) {
    if (!c.IsCpu(i)) continue;
    int64_t start = c.Start(i), end = c.End(i);
    while (lo < ts.size() && ts[lo] < start) ++lo;
    size_t step = 1, hi = lo;
    while (hi + step < ts.size() && ts[hi + step] <= end) hi += step, step *= 2;
    hi = std::upper_bound(ts.begin() + hi, ts.begin() + std::min(ts.size(), hi + step), end) -
         ts.begin();
    if (lo >= hi) continue;
    c.cpu_mem[i] = static_cast<int64_t>(cpu_prefix[hi] - cpu_prefix[lo]);
    c.cuda_mem[i] = static_cast<int64_t>(cuda_prefix[hi] - cuda_prefix[lo]);
    ++cover[lo];
    --cover[hi];
  }
  // Records inside no event become top-level [memory] events, appended in record order and
  // then merged by the same stable (start, -end) sort PyTorch applies.
  int32_t depth = 0;
  std::vector<uint32_t> uncovered;
  for (size_t k = 0; k < order.size(); ++k) {
    depth += cover[k];
    if (depth == 0) uncovered.push_back(order[k]);
  }
  std::sort(uncovered.begin(), uncovered.end());
  if (uncovered.empty()) return;
  // The importer interns "[memory]" with the records; a trace without it names them "".
  c.trace.strings.Find("[memory]", &c.memory_name);
  for (uint32_t r : uncovered) {
    c.source.push_back(r);
    c.origin.push_back(CandidateOrigin::kMemoryRecord);
    c.device.push_back(DeviceType::kCPU);
    c.placement.push_back(KinetoPlacement::kOwnThread);
    c.cpu_mem.push_back(IsCpuMemory(mem.device_type[r]) ? mem.bytes[r] : 0);
    c.cuda_mem.push_back(IsDeviceMemory(mem.device_type[r]) ? mem.bytes[r] : 0);
  }
  // The events are already in (start, -end) order; a stable sort of the whole equals a stable
  // merge of them with the sorted [memory] events, which is linear.
  auto before = [&](uint32_t a, uint32_t b) {
    int64_t start_a = c.Start(a), start_b = c.Start(b);
    if (start_a != start_b) return start_a < start_b;
    return c.End(a) > c.End(b);
  };
  std::vector<uint32_t> tail(c.size() - n_events);
  std::iota(tail.begin(), tail.end(), static_cast<uint32_t>(n_events));
  std::stable_sort(tail.begin(), tail.end(), before);
  std::vector<uint32_t> perm;
  perm.reserve(c.size());
  uint32_t head = 0;
  for (uint32_t t : tail) {
    while (head < n_events && !before(t, head)) perm.push_back(head++);
    perm.push_back(t);
  }
  while (head < n_events) perm.push_back(head++);
  PermuteCandidates(&c, perm);
}

}  // namespace profana::passes
