#include "profana/job/rank_summary.h"

#include <algorithm>
#include <tuple>

#include "fmt/format.h"
#include "profana/base/int_sum.h"
#include "profana/passes/memory_timeline.h"

namespace profana::job {
namespace {

using RowKey = std::tuple<uint32_t, uint8_t, bool, bool, uint32_t, std::vector<uint32_t>>;

RowKey KeyOf(const passes::AverageRow& r) {
  std::vector<uint32_t> stack;
  stack.reserve(r.stack.size());
  for (StringId s : r.stack) stack.push_back(s.value);
  return {r.key.value,       static_cast<uint8_t>(r.device_type),       r.legacy,
          r.user_annotation, r.shapes_shown ? r.input_shapes.value : 0, std::move(stack)};
}

StringId Reintern(const StringPool& from, StringId id, StringPool* to) {
  return id.value == 0 ? StringId(0) : to->Intern(from.Get(id));
}

std::vector<passes::AverageRow> Reinterned(const StringPool& from,
                                           std::vector<passes::AverageRow> rows, StringPool* to) {
  for (passes::AverageRow& r : rows) {
    r.key = Reintern(from, r.key, to);
    r.input_shapes = Reintern(from, r.input_shapes, to);
    for (StringId& f : r.stack) f = Reintern(from, f, to);
    r.first_event = FnEventId(0);  // an index into the dropped trace's events
  }
  return rows;
}

std::vector<RowOrigin> Positions(int64_t rank, size_t n) {
  std::vector<RowOrigin> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = {rank, static_cast<int64_t>(i)};
  return out;
}

// Adds other's rows into into's by key. A key seen earlier (by origin) in `other` takes its
// first-event fields from there, so the result does not depend on the order of merging.
Status SumTooLarge(std::string_view what) {
  return Status(ErrorCode::kMalformed,
                fmt::format("{}: the merged sum passes the largest 64-bit integer; the "
                            "summaries' numbers cannot be right",
                            what));
}

Status MergeRows(std::vector<passes::AverageRow>* rows, std::vector<RowOrigin>* origin,
                 StringPool* strings, const std::vector<passes::AverageRow>& other_rows,
                 const std::vector<RowOrigin>& other_origin, const StringPool& other_strings) {
  if (other_rows.empty()) return Status::Ok();
  std::map<RowKey, size_t> index;
  for (size_t i = 0; i < rows->size(); ++i) index.emplace(KeyOf((*rows)[i]), i);
  for (size_t k = 0; k < other_rows.size(); ++k) {
    const passes::AverageRow& o = other_rows[k];
    passes::AverageRow r = o;
    r.key = Reintern(other_strings, o.key, strings);
    r.input_shapes = Reintern(other_strings, o.input_shapes, strings);
    for (StringId& f : r.stack) f = Reintern(other_strings, f, strings);
    auto [it, added] = index.emplace(KeyOf(r), rows->size());
    if (added) {
      rows->push_back(std::move(r));
      origin->push_back(other_origin[k]);
      continue;
    }
    passes::AverageRow& into = (*rows)[it->second];
    if (other_origin[k] < (*origin)[it->second]) {
      (*origin)[it->second] = other_origin[k];
      into.input_shapes = r.input_shapes;
      into.top_level = r.top_level;
    }
    if (const char* field = into.Accumulate(r))
      return SumTooLarge(fmt::format("table row \"{}\", {}", strings->Get(into.key), field));
  }
  // First-appearance order: by origin.
  std::vector<size_t> order(rows->size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return (*origin)[a] < (*origin)[b]; });
  std::vector<passes::AverageRow> sorted_rows;
  std::vector<RowOrigin> sorted_origin;
  sorted_rows.reserve(order.size());
  sorted_origin.reserve(order.size());
  for (size_t i : order) {
    sorted_rows.push_back(std::move((*rows)[i]));
    sorted_origin.push_back((*origin)[i]);
  }
  *rows = std::move(sorted_rows);
  *origin = std::move(sorted_origin);
  return Status::Ok();
}

// Sums of magnitudes in 128 bits: while one stays within int64_t, so does every sum of any of
// its values, whatever their signs (a report's total, a subset of rows, a relabelled stack).
struct Magnitude {
  __int128 sum = 0;
  void Add(int64_t v) { sum += v < 0 ? -static_cast<__int128>(v) : v; }
  bool Fits() const { return sum <= INT64_MAX; }
};

Status RowTotalsFit(const std::vector<passes::AverageRow>& rows) {
  const char* kNames[] = {"count",           "cpu_total_ns", "self_cpu_ns",
                          "cuda_total_ns",   "self_cuda_ns", "cpu_memory",
                          "self_cpu_memory", "cuda_memory",  "self_cuda_memory"};
  Magnitude m[std::size(kNames)];
  for (const passes::AverageRow& r : rows) {
    int64_t v[] = {r.count,           r.cpu_total_ns, r.self_cpu_ns,
                   r.cuda_total_ns,   r.self_cuda_ns, r.cpu_memory,
                   r.self_cpu_memory, r.cuda_memory,  r.self_cuda_memory};
    for (size_t k = 0; k < std::size(kNames); ++k) m[k].Add(v[k]);
  }
  for (size_t k = 0; k < std::size(kNames); ++k)
    if (!m[k].Fits()) return SumTooLarge(fmt::format("the table rows' total {}", kNames[k]));
  return Status::Ok();
}

// The totals of one map of duration stats: counts, sums and sums of squares.
template <typename Map, typename Stats>
Status StatTotalsFit(const Map& map, Stats stats, const char* what) {
  Magnitude count, sum;
  __int128 squares = 0;
  for (const auto& [name, v] : map) {
    const DurationStats& d = stats(v);
    count.Add(d.count());
    sum.Add(d.sum());
    if (__builtin_add_overflow(squares, d.sum_squares(), &squares) || !count.Fits() || !sum.Fits())
      return SumTooLarge(fmt::format("the total of the {}", what));
  }
  return Status::Ok();
}

void SortPeaks(std::vector<MemoryPeak>* peaks) {
  std::stable_sort(peaks->begin(), peaks->end(), [](const MemoryPeak& a, const MemoryPeak& b) {
    return std::tie(a.rank, a.device) < std::tie(b.rank, b.device);
  });
}

// A per-rank section: concatenated in rank order while every summary merged records it.
template <class T>
void MergePerRank(bool first, bool other_recorded, const std::vector<T>& other, bool* recorded,
                  std::vector<T>* into) {
  *recorded = first ? other_recorded : *recorded && other_recorded;
  if (!*recorded) return into->clear();
  into->insert(into->end(), other.begin(), other.end());
}

void ShowExactSums(std::vector<passes::AverageRow>* rows) {
  for (passes::AverageRow& r : *rows) {
    r.cpu_total_us = static_cast<double>(r.cpu_total_ns) / 1000.0;
    r.self_cpu_us = static_cast<double>(r.self_cpu_ns) / 1000.0;
    r.cuda_total_us = static_cast<double>(r.cuda_total_ns) / 1000.0;
    r.self_cuda_us = static_cast<double>(r.self_cuda_ns) / 1000.0;
  }
}

}  // namespace

RankSummary SummarizeRank(const Trace& trace, const passes::FunctionEventList& events,
                          const std::string& path, const SummaryOptions& options) {
  RankSummary s;
  SourceInfo src;
  src.path = path;
  src.rank = trace.metadata.rank;
  src.world_size = trace.metadata.world_size;
  src.format = TraceFormatName(trace.metadata.format);
  src.input_bytes = trace.metadata.input_bytes;
  src.devices = trace.metadata.devices;
  s.sources.push_back(std::move(src));
  s.has_memory_records = passes::RecordsMemory(trace);
  s.with_flops = trace.metadata.with_flops;
  if (options.table) {
    s.rows = Reinterned(
        trace.strings, passes::ComputeKeyAverages(trace, events, options.key_averages), &s.strings);
    s.row_origin = Positions(s.rank(), s.rows.size());
  }
  if (options.shape_table) {
    passes::KeyAverageOptions by_shape;
    by_shape.group_by_input_shape = true;
    s.shape_rows =
        Reinterned(trace.strings, passes::ComputeKeyAverages(trace, events, by_shape), &s.strings);
    s.shape_row_origin = Positions(s.rank(), s.shape_rows.size());
  }
  if (options.steps)
    for (StepRow& row : ComputeStepBreakdown(trace))
      s.steps.push_back(RankStep{trace.metadata.rank, std::move(row)});
  if (options.kernels) s.kernels = ComputeKernelStats(trace, events);
  if (options.collectives) {
    s.collectives_recorded = true;
    s.collectives.push_back(
        RankCollectives{s.rank(), FindCollectiveCalls(trace), FindProcessGroups(trace)});
  }
  if (options.memory) {
    s.memory_recorded = true;
    if (trace.memory.size() > 0) {
      passes::MemoryTimeline t = passes::BuildMemoryTimeline(trace, events);
      auto recorded = [](int64_t v) { return v == kNoId ? -1 : v; };
      for (size_t d = 0; d < t.devices.size(); ++d) {
        const passes::MemoryDeviceSummary& m = t.summary[d];
        s.memory_peaks.push_back(
            MemoryPeak{s.rank(), t.devices[d].name, static_cast<int64_t>(m.records), m.peak_bytes,
                       recorded(m.max_total_allocated), recorded(m.max_total_reserved)});
      }
      SortPeaks(&s.memory_peaks);
    }
  }
  return s;
}

Status UseSummaryForTable(RankSummary* s, const std::string& path,
                          const passes::KeyAverageOptions& keys) {
  if (keys.group_by_stack_n > 0)
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format("{}: a summary keeps no stacks: --group-by-stack needs the traces", path));
  if (keys.group_by_input_shape) {
    s->rows = std::move(s->shape_rows);
    s->row_origin = std::move(s->shape_row_origin);
  }
  return Status::Ok();
}

void SetRank(RankSummary* s, int64_t rank) {
  for (SourceInfo& src : s->sources) src.rank = rank;
  for (RankStep& step : s->steps) step.rank = rank;
  for (RowOrigin& o : s->row_origin) o.rank = rank;
  for (RowOrigin& o : s->shape_row_origin) o.rank = rank;
  for (RankCollectives& c : s->collectives) c.rank = rank;
  for (MemoryPeak& p : s->memory_peaks) p.rank = rank;
}

Status Merge(RankSummary* into, const RankSummary& other) {
  bool first = into->sources.empty();
  into->sources.insert(into->sources.end(), other.sources.begin(), other.sources.end());
  std::stable_sort(into->sources.begin(), into->sources.end(),
                   [](const SourceInfo& a, const SourceInfo& b) {
                     return std::tie(a.rank, a.hash, a.path) < std::tie(b.rank, b.hash, b.path);
                   });
  PROFANA_RETURN_IF_ERROR(MergeRows(&into->rows, &into->row_origin, &into->strings, other.rows,
                                    other.row_origin, other.strings));
  PROFANA_RETURN_IF_ERROR(MergeRows(&into->shape_rows, &into->shape_row_origin, &into->strings,
                                    other.shape_rows, other.shape_row_origin, other.strings));
  if (into->sources.size() > 1) {
    // Several sources: display the exact sums (float sums would depend on the merge order).
    ShowExactSums(&into->rows);
    ShowExactSums(&into->shape_rows);
  }
  into->has_memory_records = into->has_memory_records || other.has_memory_records;
  into->with_flops = into->with_flops || other.with_flops;
  for (const auto& [stack, weight] : other.stacks)
    if (!CheckedAdd(&into->stacks[stack], weight))
      return SumTooLarge(fmt::format("the weight of stack \"{}\"", stack));
  into->steps.insert(into->steps.end(), other.steps.begin(), other.steps.end());
  std::stable_sort(into->steps.begin(), into->steps.end(),
                   [](const RankStep& a, const RankStep& b) {
                     return std::tie(a.rank, a.row.step, a.row.start_ns) <
                            std::tie(b.rank, b.row.step, b.row.start_ns);
                   });
  PROFANA_RETURN_IF_ERROR(into->kernels.Merge(other.kernels));
  MergePerRank(first, other.collectives_recorded, other.collectives, &into->collectives_recorded,
               &into->collectives);
  std::stable_sort(
      into->collectives.begin(), into->collectives.end(),
      [](const RankCollectives& a, const RankCollectives& b) { return a.rank < b.rank; });
  MergePerRank(first, other.memory_recorded, other.memory_peaks, &into->memory_recorded,
               &into->memory_peaks);
  SortPeaks(&into->memory_peaks);
  into->ranks_settled = into->ranks_settled || other.ranks_settled;
  return CheckTotalsFit(*into);
}

Status CheckTotalsFit(const RankSummary& s) {
  PROFANA_RETURN_IF_ERROR(RowTotalsFit(s.rows));
  PROFANA_RETURN_IF_ERROR(RowTotalsFit(s.shape_rows));
  Magnitude stacks;
  for (const auto& [stack, weight] : s.stacks) stacks.Add(weight);
  if (!stacks.Fits()) return SumTooLarge("the stacks' total weight");
  auto kernel = [](const KernelStat& k) -> const DurationStats& { return k.duration; };
  PROFANA_RETURN_IF_ERROR(StatTotalsFit(s.kernels.kernels, kernel, "kernels"));
  PROFANA_RETURN_IF_ERROR(StatTotalsFit(s.kernels.by_op, kernel, "kernels by op"));
  return StatTotalsFit(
      s.kernels.api, [](const DurationStats& d) -> const DurationStats& { return d; }, "calls");
}

Result<std::vector<RankSummary>> TableParts(JobSummary job, bool by_rank, passes::SortKey sort) {
  std::vector<RankSummary> parts;
  if (by_rank) {
    parts = std::move(job.ranks);
  } else {
    PROFANA_ASSIGN_OR_RETURN(RankSummary all, job.Combine());
    parts.push_back(std::move(all));
  }
  for (RankSummary& s : parts) passes::SortRows(&s.rows, sort);
  return parts;
}

std::vector<int64_t> JobSummary::RankList() const {
  std::vector<int64_t> out;
  for (const RankSummary& r : ranks)
    for (const SourceInfo& s : r.sources) out.push_back(s.rank);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Result<RankSummary> JobSummary::Combine() const {
  RankSummary out;
  for (const RankSummary& r : ranks)
    if (Status st = Merge(&out, r); !st.ok())
      return Status(
          st.code(),
          fmt::format("adding rank {} ({}): {}", r.rank(),
                      r.sources.empty() ? std::string() : r.sources.front().path, st.message()));
  return out;
}

std::string FormatRankList(const std::vector<int64_t>& ranks) {
  std::string out;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    out += fmt::format("{}{}", out.empty() ? "" : ",", ranks[i]);
    if (j > i) out += fmt::format("{}{}", j == i + 1 ? "," : "-", ranks[j]);
    i = j + 1;
  }
  return out;
}

passes::StepStats JobStepStats(const RankSummary& summary) {
  passes::StepStats s;
  int64_t total_ns = 0;
  for (const RankStep& step : summary.steps) total_ns += step.row.host_ns;
  s.steps = static_cast<int64_t>(summary.steps.size());
  s.mean_ns = s.steps ? total_ns / s.steps : 0;
  return s;
}

}  // namespace profana::job
