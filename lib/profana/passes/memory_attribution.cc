// [memory] records count toward every CPU event whose closed interval holds them, on any thread
// (PyTorch's cpu_memory_usage / cuda_memory_usage, children included); records inside no event
// become top-level "[memory]" events of their own.
//
// In two steps: the [memory] events join the candidates before the tree is built
// (AddMemoryEvents), and each kept event's bytes are summed once the list is compact
// (AttributeMemoryBytes), so that the byte columns never sit beside the candidates' columns.
#include <algorithm>
#include <numeric>

#include "profana/base/parallel.h"
#include "profana/passes/function_event_candidates.h"
#include "profana/passes/memory_device_types.h"

namespace profana::passes {
namespace {

// A record's bytes as CPU memory and as device memory (0 where it counts as the other, or neither:
// other device types count nowhere).
int64_t CpuBytes(const MemoryTable& mem, uint32_t r) {
  return IsCpuMemory(mem.device_type[r]) ? mem.bytes[r] : 0;
}
int64_t DeviceBytes(const MemoryTable& mem, uint32_t r) {
  return IsDeviceMemory(mem.device_type[r]) ? mem.bytes[r] : 0;
}

// The records (by time) inside [start, end]: [*lo, returned). Events come by start time, so the
// first record of each only moves forward; the last is found by galloping from there (events
// are short: a few records at most).
size_t RecordsInside(const std::vector<int64_t>& ts, int64_t start, int64_t end, size_t* lo) {
  while (*lo < ts.size() && ts[*lo] < start) ++*lo;
  size_t step = 1, hi = *lo;
  while (hi + step < ts.size() && ts[hi + step] <= end) hi += step, step *= 2;
  return std::upper_bound(ts.begin() + hi, ts.begin() + std::min(ts.size(), hi + step), end) -
         ts.begin();
}

}  // namespace

MemoryRecordsByTime SortMemoryRecords(const MemoryTable& mem) {
  MemoryRecordsByTime s;
  if (mem.size() == 0) return s;
  s.order.resize(mem.size());
  std::iota(s.order.begin(), s.order.end(), 0u);
  // Profilers write the records as they happen: most files have them in time order already.
  if (!std::is_sorted(mem.ts_ns.begin(), mem.ts_ns.end()))
    std::stable_sort(s.order.begin(), s.order.end(),
                     [&](uint32_t a, uint32_t b) { return mem.ts_ns[a] < mem.ts_ns[b]; });
  s.ts.resize(mem.size());
  for (size_t k = 0; k < s.order.size(); ++k) s.ts[k] = mem.ts_ns[s.order[k]];
  return s;
}

void AddMemoryEvents(Candidates* candidates) {
  Candidates& c = *candidates;
  const MemoryTable& mem = c.trace.memory;
  MemoryRecordsByTime& by_time = c.memory;
  size_t n_events = c.size();
  if (mem.size() == 0) return;
  // Difference arrays of the records inside some event, one per half of the events: the halves
  // are looked at once on two cores where there are. The events come by start time, so a half's
  // first record inside anything is found by one search from its first CPU event's start.
  std::vector<int32_t> cover[2];
  size_t holding[2] = {0, 0};
  InHalves(n_events, [&](size_t h, size_t begin, size_t end) {
    while (begin < end && !c.IsCpu(begin)) ++begin;
    if (begin == end) return;
    std::vector<int32_t>& half_cover = cover[h];
    half_cover.assign(mem.size() + 1, 0);
    const std::vector<int64_t>& ts = by_time.ts;
    size_t lo = std::lower_bound(ts.begin(), ts.end(), c.Start(begin)) - ts.begin();
    for (size_t i = begin; i < end; ++i) {
      if (!c.IsCpu(i)) continue;
      size_t hi = RecordsInside(ts, c.Start(i), c.End(i), &lo);
      if (lo >= hi) continue;
      ++half_cover[lo];
      --half_cover[hi];
      ++holding[h];
    }
  });
  by_time.events_holding += holding[0] + holding[1];
  // Records inside no event become top-level [memory] events, appended in record order and
  // then merged by the same stable (start, -end) sort PyTorch applies.
  int32_t depth = 0;
  std::vector<uint32_t> uncovered;
  for (size_t k = 0; k < by_time.order.size(); ++k) {
    for (const std::vector<int32_t>& half_cover : cover)
      if (!half_cover.empty()) depth += half_cover[k];
    if (depth == 0) uncovered.push_back(by_time.order[k]);
  }
  std::sort(uncovered.begin(), uncovered.end());
  by_time.events_holding += uncovered.size();
  if (uncovered.empty()) return;
  // The importer interns "[memory]" with the records; a trace without it names them "".
  c.trace.strings.Find("[memory]", &c.memory_name);
  for (uint32_t r : uncovered) {
    c.source.push_back(r);
    c.origin.push_back(CandidateOrigin::kMemoryRecord);
    c.device.push_back(DeviceType::kCPU);
    c.placement.push_back(KinetoPlacement::kOwnThread);
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

void AttributeMemoryBytes(const Trace& trace, const MemoryRecordsByTime& by_time,
                          FunctionEventList* list) {
  FunctionEventList& o = *list;
  const EventTable& ev = trace.events;
  const MemoryTable& mem = trace.memory;
  // Without records every event's bytes are 0: the columns stay empty (FunctionEventList).
  if (mem.size() == 0) return;
  // Prefix sums of the records' bytes by time answer "bytes inside [start, end]". They wrap
  // (unsigned) so that damaged byte counts near the int64 limit cannot overflow; a range's
  // difference is still exact whenever its true sum fits in int64. Made here, once the
  // candidates are gone, rather than beside them.
  std::vector<uint64_t> cpu_prefix(mem.size() + 1, 0), cuda_prefix(mem.size() + 1, 0);
  for (size_t k = 0; k < by_time.order.size(); ++k) {
    uint32_t r = by_time.order[k];
    cpu_prefix[k + 1] = cpu_prefix[k] + static_cast<uint64_t>(CpuBytes(mem, r));
    cuda_prefix[k + 1] = cuda_prefix[k] + static_cast<uint64_t>(DeviceBytes(mem, r));
  }
  // Most events have no record inside them: only those that have bytes keep them, made at their
  // size (no more than the events holding records, counted before the tree was built): a growing
  // array would hold two copies at once, at the list's peak.
  SparseRows<FunctionEventList::MemoryBytes> bytes(o.size());
  bytes.Reserve(by_time.events_holding);
  auto keep = [&](size_t j, int64_t cpu, int64_t cuda) {
    if (cpu != 0 || cuda != 0) bytes.Append(j, {cpu, cuda});
  };
  // A [memory] event has its own record's bytes; a CPU event the records inside it. The list
  // keeps the candidates' (start, -end) order, so starts only move forward.
  size_t lo = 0, synthetic = 0;
  for (size_t j = 0; j < o.size(); ++j) {
    if (o.source[j] == kSynthetic) {
      uint32_t r = o.synthetic_record[synthetic++];
      keep(j, CpuBytes(mem, r), DeviceBytes(mem, r));
      continue;
    }
    if (o.device_type[j] != DeviceType::kCPU) continue;
    uint32_t e = o.source[j].value;
    size_t hi = RecordsInside(by_time.ts, ev.start_ns[e], ev.end_ns[e], &lo);
    if (lo >= hi) continue;
    keep(j, static_cast<int64_t>(cpu_prefix[hi] - cpu_prefix[lo]),
         static_cast<int64_t>(cuda_prefix[hi] - cuda_prefix[lo]));
  }
  bytes.Seal();
  o.cpu_memory.clear();
  o.cuda_memory.clear();
  o.memory = std::move(bytes);
}

}  // namespace profana::passes
