#include "profana/passes/key_averages.h"

#include <algorithm>
#include <unordered_map>

#include "profana/base/int_sum.h"
#include "profana/base/named_values.h"
#include "profana/base/pipeline.h"
#include "profana/passes/event_times.h"
#include "profana/passes/flops.h"

namespace profana::passes {
namespace {

// Python's ints do not overflow; a sum past 2^64 FLOPs stays at the largest count instead of
// wrapping.
uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  uint64_t sum;
  return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

// FunctionEventAvg.add of one event, field by field (no AverageRow per event).
void Add(const FunctionEventList& e, const EventFlops& flops, const EventTime& t, uint32_t i,
         AverageRow* row) {
  row->count += 1;
  if (e.source[i] != kSynthetic) row->flops = SaturatingAdd(row->flops, flops.Of(e.source[i]));
  row->cpu_total_us += t.cpu_total_us;
  row->self_cpu_us += t.self_cpu_us;
  row->cuda_total_us += t.cuda_total_us;
  row->self_cuda_us += t.self_cuda_us;
  row->cpu_total_ns = WrapAdd(row->cpu_total_ns, t.cpu_total_ns);
  row->self_cpu_ns = WrapAdd(row->self_cpu_ns, t.self_cpu_ns);
  row->cuda_total_ns = WrapAdd(row->cuda_total_ns, t.cuda_total_ns);
  row->self_cuda_ns = WrapAdd(row->self_cuda_ns, t.self_cuda_ns);
  row->cpu_memory = WrapAdd(row->cpu_memory, e.CpuMemory(i));
  row->self_cpu_memory = WrapAdd(row->self_cpu_memory, t.self_cpu_memory);
  row->cuda_memory = WrapAdd(row->cuda_memory, e.CudaMemory(i));
  row->self_cuda_memory = WrapAdd(row->self_cuda_memory, t.self_cuda_memory);
}

AverageRow FirstRow(const Trace& trace, const FunctionEventList& e, uint32_t i) {
  AverageRow row;
  row.key = e.name[i];
  row.device_type = e.device_type[i];
  EventId source = e.source[i];
  ActivityKind kind = source != kSynthetic ? trace.events.kind[source.value] : ActivityKind::kCpuOp;
  row.user_annotation = kind == ActivityKind::kGpuUserAnnotation;
  row.annotation = row.user_annotation || kind == ActivityKind::kUserAnnotation;
  row.is_async = e.IsAsync(i);
  row.legacy = e.legacy;
  row.input_shapes = e.input_shapes[i];
  row.top_level = !e.parent[i].valid();
  row.first_event = FnEventId(i);
  return row;
}

// add(i, time) for each event in order. An event's times come from its children alone, while a
// row's float sums must take the events in order (PyTorch's): the times of the first three
// quarters of each chunk are worked out ahead on the helper where there are two cores
// (UseInOrder), the rest by the thread that then adds them, which also has the lookups and the
// sums to do.
template <typename AddEvent>
void ForEachEventTime(const EventTimes& times, size_t n, AddEvent add) {
  constexpr size_t kChunk = 4096, kSlots = 4;  // 320 KB a chunk: within a core's cache
  constexpr size_t kAhead = kChunk * 3 / 4;
  size_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<EventTime> buffer(chunks > 1 ? std::min(chunks, kSlots) * kChunk : n);
  auto rows_of = [&](size_t k) {
    return std::pair<size_t, size_t>(k * kChunk, std::min(n, (k + 1) * kChunk));
  };
  UseInOrder(
      n, chunks, kSlots,
      [&](size_t k, size_t slot) {
        auto [begin, end] = rows_of(k);
        end = std::min(end, begin + kAhead);
        EventTime* out = buffer.data() + slot * kChunk;
        for (size_t i = begin; i < end; ++i) out[i - begin] = times[static_cast<uint32_t>(i)];
      },
      [&](size_t k, size_t slot) {
        auto [begin, end] = rows_of(k);
        EventTime* in = buffer.data() + slot * kChunk;
        for (size_t i = begin + kAhead; i < end; ++i)
          in[i - begin] = times[static_cast<uint32_t>(i)];
        for (size_t i = begin; i < end; ++i) add(static_cast<uint32_t>(i), in[i - begin]);
      });
}

// The grouping key, as a flat vector of ids (name, device, [shapes], [frames]).
struct KeyHash {
  size_t operator()(const std::vector<uint32_t>& k) const {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint32_t v : k) h = (h ^ v) * 0x100000001b3ull;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

}  // namespace

std::vector<AverageRow> ComputeKeyAverages(const Trace& trace, const FunctionEventList& events,
                                           const KeyAverageOptions& options) {
  std::vector<AverageRow> rows;
  EventTimes times(trace, events);
  const EventFlops flops(trace);
  size_t n = options.group_by_stack_n > 0 ? static_cast<size_t>(options.group_by_stack_n) : 0;
  if (!options.group_by_input_shape && n == 0) {
    // The common case: key on (name, device) without building vectors.
    // A row per (name id, device type): a vector indexed by both, no hashing per event.
    std::vector<uint32_t> index(trace.strings.size() * 2, UINT32_MAX);
    ForEachEventTime(times, events.size(), [&](uint32_t i, const EventTime& t) {
      uint32_t& slot = index[events.name[i].value * size_t{2} +
                             (events.device_type[i] == DeviceType::kCPU ? 0 : 1)];
      if (slot == UINT32_MAX) {
        slot = static_cast<uint32_t>(rows.size());
        rows.push_back(FirstRow(trace, events, i));
      }
      Add(events, flops, t, i, &rows[slot]);
    });
    return rows;
  }
  std::unordered_map<std::vector<uint32_t>, uint32_t, KeyHash> index;
  std::vector<uint32_t> key;
  ForEachEventTime(times, events.size(), [&](uint32_t i, const EventTime& t) {
    key.clear();
    key.push_back(events.name[i].value);
    key.push_back(static_cast<uint32_t>(events.device_type[i]));
    if (options.group_by_input_shape) key.push_back(events.input_shapes[i].value);
    std::vector<StringId> frames;
    if (n) {
      frames = events.StackFrames(trace, events.stack[i]);
      if (frames.size() > n) frames.resize(n);
      // Stacks of different lengths are different keys even when one is a prefix.
      key.push_back(static_cast<uint32_t>(frames.size()));
      for (StringId f : frames) key.push_back(f.value);
    }
    auto [it, inserted] = index.try_emplace(key, static_cast<uint32_t>(rows.size()));
    if (inserted) {
      rows.push_back(FirstRow(trace, events, i));
      rows.back().shapes_shown = options.group_by_input_shape;
      rows.back().stack = std::move(frames);
    }
    Add(events, flops, t, i, &rows[it->second]);
  });
  return rows;
}

std::vector<AverageRow> RawEventRows(const Trace& trace, const FunctionEventList& events) {
  std::vector<AverageRow> rows;
  rows.reserve(events.size());
  EventTimes times(trace, events);
  const EventFlops flops(trace);
  for (uint32_t i = 0; i < events.size(); ++i) {
    rows.push_back(FirstRow(trace, events, i));
    rows.back().shapes_shown = true;
    rows.back().stack = events.StackFrames(trace, events.stack[i]);
    Add(events, flops, times[i], i, &rows.back());
  }
  return rows;
}

AverageRow TotalAverage(const std::vector<AverageRow>& rows) {
  AverageRow total;
  for (const AverageRow& r : rows) total.Accumulate(r);
  return total;
}

const char* AverageRow::Accumulate(const AverageRow& o) {
  cpu_total_us += o.cpu_total_us;
  self_cpu_us += o.self_cpu_us;
  cuda_total_us += o.cuda_total_us;
  self_cuda_us += o.self_cuda_us;
  std::pair<int64_t*, int64_t> sums[] = {{&count, o.count},
                                         {&cpu_total_ns, o.cpu_total_ns},
                                         {&self_cpu_ns, o.self_cpu_ns},
                                         {&cuda_total_ns, o.cuda_total_ns},
                                         {&self_cuda_ns, o.self_cuda_ns},
                                         {&cpu_memory, o.cpu_memory},
                                         {&self_cpu_memory, o.self_cpu_memory},
                                         {&cuda_memory, o.cuda_memory},
                                         {&self_cuda_memory, o.self_cuda_memory}};
  static constexpr const char* kNames[] = {"count",           "cpu_total_ns", "self_cpu_ns",
                                           "cuda_total_ns",   "self_cuda_ns", "cpu_memory",
                                           "self_cpu_memory", "cuda_memory",  "self_cuda_memory"};
  flops = SaturatingAdd(flops, o.flops);  // FLOPs saturate: an estimate, not a sum of times
  const char* overflow = nullptr;
  for (size_t k = 0; k < std::size(sums); ++k)
    if (!CheckedAdd(sums[k].first, sums[k].second) && !overflow) overflow = kNames[k];
  return overflow;
}

}  // namespace profana::passes

namespace profana::passes {
namespace {

constexpr NamedValue<SortKey> kSortKeys[] = {
    {"cpu_time", SortKey::kCpuTime},
    {"cuda_time", SortKey::kCudaTime},
    {"cpu_time_total", SortKey::kCpuTimeTotal},
    {"cuda_time_total", SortKey::kCudaTimeTotal},
    {"self_cpu_time_total", SortKey::kSelfCpuTimeTotal},
    {"self_cuda_time_total", SortKey::kSelfCudaTimeTotal},
    {"cpu_memory_usage", SortKey::kCpuMemoryUsage},
    {"cuda_memory_usage", SortKey::kCudaMemoryUsage},
    {"self_cpu_memory_usage", SortKey::kSelfCpuMemoryUsage},
    {"self_cuda_memory_usage", SortKey::kSelfCudaMemoryUsage},
    {"count", SortKey::kCount},
    {"flops", SortKey::kFlops},
    // Short aliases.
    {"cpu_total", SortKey::kCpuTimeTotal},
    {"cuda_total", SortKey::kCudaTimeTotal},
    {"self_cpu", SortKey::kSelfCpuTimeTotal},
    {"self_cuda", SortKey::kSelfCudaTimeTotal},
    {"cpu_avg", SortKey::kCpuTime},
    {"cuda_avg", SortKey::kCudaTime},
    {"cpu_mem", SortKey::kCpuMemoryUsage},
    {"cuda_mem", SortKey::kCudaMemoryUsage},
    {"self_cpu_mem", SortKey::kSelfCpuMemoryUsage},
    {"self_cuda_mem", SortKey::kSelfCudaMemoryUsage},
    {"calls", SortKey::kCount},
    // PyTorch 2.x's names for the same columns (device_* for cuda_*), and diff's short forms.
    {"device_time", SortKey::kCudaTime},
    {"device_time_total", SortKey::kCudaTimeTotal},
    {"self_device_time_total", SortKey::kSelfCudaTimeTotal},
    {"device_memory_usage", SortKey::kCudaMemoryUsage},
    {"self_device_memory_usage", SortKey::kSelfCudaMemoryUsage},
    {"device_total", SortKey::kCudaTimeTotal},
    {"self_device", SortKey::kSelfCudaTimeTotal},
};

// The value Python compares: times are the float microsecond sums, averages their division.
double TimeValue(const AverageRow& r, SortKey key) {
  switch (key) {
    case SortKey::kCpuTime:
      return r.count ? r.cpu_total_us / r.count : 0.0;
    case SortKey::kCudaTime:
      return r.count ? r.cuda_total_us / r.count : 0.0;
    case SortKey::kCpuTimeTotal:
      return r.cpu_total_us;
    case SortKey::kCudaTimeTotal:
      return r.cuda_total_us;
    case SortKey::kSelfCpuTimeTotal:
      return r.self_cpu_us;
    case SortKey::kSelfCudaTimeTotal:
      return r.self_cuda_us;
    default:
      return 0;
  }
}

// Memory and counts are exact integers.
int64_t IntegerValue(const AverageRow& r, SortKey key) {
  switch (key) {
    case SortKey::kCpuMemoryUsage:
      return r.cpu_memory;
    case SortKey::kCudaMemoryUsage:
      return r.cuda_memory;
    case SortKey::kSelfCpuMemoryUsage:
      return r.self_cpu_memory;
    case SortKey::kSelfCudaMemoryUsage:
      return r.self_cuda_memory;
    case SortKey::kCount:
      return r.count;
    default:
      return 0;
  }
}

bool IsTimeKey(SortKey key) {
  return key == SortKey::kCpuTime || key == SortKey::kCudaTime || key == SortKey::kCpuTimeTotal ||
         key == SortKey::kCudaTimeTotal || key == SortKey::kSelfCpuTimeTotal ||
         key == SortKey::kSelfCudaTimeTotal;
}

}  // namespace

Result<SortKey> ParseSortKey(std::string_view text) {
  return ParseNamedValue(text, "key", kSortKeys);
}

const char* SortKeyHelp() {
  return "Sort rows by this attribute, descending (cpu_time, cuda_time, cpu_time_total, "
         "cuda_time_total, self_cpu_time_total, self_cuda_time_total, cpu_memory_usage, "
         "cuda_memory_usage, self_cpu_memory_usage, self_cuda_memory_usage, count, flops; short "
         "aliases self_cpu, self_cuda, cpu_total, cuda_total, cpu_mem, self_cpu_mem, "
         "cuda_mem, self_cuda_mem, calls; PyTorch 2's device_* spellings of the cuda_* keys)";
}

const std::vector<std::string>& SortKeyNames() {
  static const std::vector<std::string> names = ListedNames(kSortKeys);
  return names;
}

void SortRows(std::vector<AverageRow>* rows, SortKey key) {
  if (key == SortKey::kNone) return;
  std::stable_sort(rows->begin(), rows->end(), [key](const AverageRow& a, const AverageRow& b) {
    if (IsTimeKey(key)) return TimeValue(a, key) > TimeValue(b, key);
    if (key == SortKey::kFlops) return a.flops > b.flops;
    return IntegerValue(a, key) > IntegerValue(b, key);
  });
}

std::vector<AverageRow> TableRows(const Trace& trace, const FunctionEventList& events, bool raw,
                                  const KeyAverageOptions& keys, SortKey sort) {
  std::vector<AverageRow> rows =
      raw ? RawEventRows(trace, events) : ComputeKeyAverages(trace, events, keys);
  SortRows(&rows, sort);
  return rows;
}

bool SortsByMissingDeviceTime(const std::vector<AverageRow>& rows, SortKey sort) {
  if (sort != SortKey::kCudaTime && sort != SortKey::kCudaTimeTotal &&
      sort != SortKey::kSelfCudaTimeTotal)
    return false;
  return std::none_of(rows.begin(), rows.end(), [](const AverageRow& r) {
    return r.cuda_total_ns != 0 || r.self_cuda_ns != 0;
  });
}

}  // namespace profana::passes
