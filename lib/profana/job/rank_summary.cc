#include "profana/job/rank_summary.h"

#include <tuple>

#include "fmt/format.h"

namespace profana::job {
namespace {

using RowKey = std::tuple<uint32_t, uint8_t, bool, uint32_t, std::vector<uint32_t>>;

RowKey KeyOf(const passes::AverageRow& r) {
  std::vector<uint32_t> stack;
  stack.reserve(r.stack.size());
  for (StringId s : r.stack) stack.push_back(s.value);
  return {r.key.value, static_cast<uint8_t>(r.device_type), r.legacy,
          r.shapes_shown ? r.input_shapes.value : 0, std::move(stack)};
}

StringId Reintern(const StringPool& from, StringId id, StringPool* to) {
  return id.value == 0 ? StringId(0) : to->Intern(from.Get(id));
}

}  // namespace

RankSummary SummarizeRank(const Trace& trace, const passes::FunctionEventList& events,
                          const std::string& path, const SummaryOptions& options) {
  RankSummary s;
  SourceInfo src;
  src.path = path;
  src.rank = trace.metadata.rank;
  src.world_size = trace.metadata.world_size;
  src.format = trace.metadata.format;
  src.input_bytes = trace.metadata.input_bytes;
  src.devices = trace.metadata.devices;
  s.sources.push_back(std::move(src));
  if (options.table) {
    std::vector<passes::AverageRow> rows =
        passes::ComputeKeyAverages(trace, events, options.key_averages);
    s.has_memory_records = events.has_memory_records;
    s.rows.reserve(rows.size());
    for (passes::AverageRow& r : rows) {
      r.key = Reintern(trace.strings, r.key, &s.strings);
      r.input_shapes = Reintern(trace.strings, r.input_shapes, &s.strings);
      for (StringId& f : r.stack) f = Reintern(trace.strings, f, &s.strings);
      r.first_event = FnEventId(0);  // an index into the dropped trace's events
      s.rows.push_back(std::move(r));
    }
  }
  if (options.steps)
    for (StepRow& row : ComputeStepBreakdown(trace))
      s.steps.push_back(RankStep{trace.metadata.rank, std::move(row)});
  if (options.kernels) s.kernels = ComputeKernelStats(trace, events);
  return s;
}

void Merge(RankSummary* into, const RankSummary& other) {
  into->sources.insert(into->sources.end(), other.sources.begin(), other.sources.end());
  if (!other.rows.empty()) {
    std::map<RowKey, size_t> index;
    for (size_t i = 0; i < into->rows.size(); ++i) index.emplace(KeyOf(into->rows[i]), i);
    for (const passes::AverageRow& o : other.rows) {
      passes::AverageRow r = o;
      r.key = Reintern(other.strings, o.key, &into->strings);
      r.input_shapes = Reintern(other.strings, o.input_shapes, &into->strings);
      for (StringId& f : r.stack) f = Reintern(other.strings, f, &into->strings);
      auto [it, added] = index.emplace(KeyOf(r), into->rows.size());
      if (added)
        into->rows.push_back(std::move(r));
      else
        into->rows[it->second].Accumulate(r);
    }
  }
  into->has_memory_records = into->has_memory_records || other.has_memory_records;
  for (const auto& [stack, weight] : other.stacks) into->stacks[stack] += weight;
  into->steps.insert(into->steps.end(), other.steps.begin(), other.steps.end());
  into->kernels.Merge(other.kernels);
}

std::vector<int64_t> JobSummary::RankList() const {
  std::vector<int64_t> out;
  for (const RankSummary& r : ranks) out.push_back(r.rank());
  return out;
}

RankSummary JobSummary::Combine() const {
  RankSummary out;
  for (const RankSummary& r : ranks) Merge(&out, r);
  if (ranks.size() > 1) {
    // Several sources: display the exact sums (float sums would depend on the merge order).
    for (passes::AverageRow& r : out.rows) {
      r.cpu_total_us = static_cast<double>(r.cpu_total_ns) / 1000.0;
      r.self_cpu_us = static_cast<double>(r.self_cpu_ns) / 1000.0;
      r.cuda_total_us = static_cast<double>(r.cuda_total_ns) / 1000.0;
      r.self_cuda_us = static_cast<double>(r.self_cuda_ns) / 1000.0;
    }
  }
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

}  // namespace profana::job
