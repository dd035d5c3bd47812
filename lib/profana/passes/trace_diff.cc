#include "profana/passes/trace_diff.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "profana/base/int_sum.h"
#include "profana/base/named_values.h"
#include "profana/model/event_roles.h"
#include "profana/passes/trace_filter.h"

namespace profana::passes {
namespace {

// Rows keyed by text: strings are interned per trace, so ids do not match across traces.
std::string RowKey(const StringPool& t, const AverageRow& r, const KeyAverageOptions& o) {
  std::string key(t.Get(r.key));
  key += r.device_type == DeviceType::kCPU ? "\x1f"
                                             "c"
                                           : "\x1f"
                                             "d";
  if (o.group_by_input_shape) key.append("\x1f").append(t.Get(r.input_shapes));
  for (StringId f : r.stack) key.append("\x1e").append(t.Get(f));
  return key;
}

DiffValues Values(const AverageRow& r, double scale) {
  return {r.count * scale, r.self_cpu_ns * scale / 1000, r.cpu_total_ns * scale / 1000,
          r.self_cuda_ns * scale / 1000, r.cuda_total_ns * scale / 1000};
}

// The footer's totals. Every function event is in exactly one row, so the rows' counts sum to the
// number of events.
DiffTotals Totals(const StepStats& s, const std::vector<AverageRow>& rows, double scale) {
  DiffTotals d;
  d.steps = s.steps;
  d.step_time_us = s.mean_ns / 1000.0;
  // Wrapping, as the rows' own sums: damaged times must not overflow.
  int64_t self_cpu = 0, self_device = 0;
  for (const AverageRow& r : rows) {
    self_cpu = WrapAdd(self_cpu, r.self_cpu_ns);
    if (r.CountsInCudaTotal()) self_device = WrapAdd(self_device, r.self_cuda_ns);
    d.events += r.count;
  }
  d.self_cpu_us = self_cpu * scale / 1000;
  d.self_device_us = self_device * scale / 1000;
  return d;
}

}  // namespace

namespace {

constexpr NamedValue<DiffMetric> kDiffMetrics[] = {
    {"self", DiffMetric::kSelf},
    {"self_cpu", DiffMetric::kSelfCpu},
    {"self_device", DiffMetric::kSelfDevice},
    {"cpu_total", DiffMetric::kCpuTotal},
    {"device_total", DiffMetric::kDeviceTotal},
    {"count", DiffMetric::kCount},
    // The spellings table takes (PyTorch's sort_by keys, cuda_* and 2.x's device_*).
    {"self_cpu_time_total", DiffMetric::kSelfCpu, false},
    {"self_cuda_time_total", DiffMetric::kSelfDevice, false},
    {"self_device_time_total", DiffMetric::kSelfDevice, false},
    {"self_cuda", DiffMetric::kSelfDevice, false},
    {"cpu_time_total", DiffMetric::kCpuTotal, false},
    {"cuda_time_total", DiffMetric::kDeviceTotal, false},
    {"device_time_total", DiffMetric::kDeviceTotal, false},
    {"cuda_total", DiffMetric::kDeviceTotal, false},
    {"calls", DiffMetric::kCount, false}};

}  // namespace

Result<DiffMetric> ParseDiffMetric(std::string_view text) {
  return ParseNamedValue(text, "metric", kDiffMetrics);
}

std::vector<std::string> DiffMetricNames() { return ListedNames(kDiffMetrics); }

const char* DiffMetricName(DiffMetric m) {
  switch (m) {
    case DiffMetric::kSelf:
      return "self";
    case DiffMetric::kSelfCpu:
      return "self_cpu";
    case DiffMetric::kSelfDevice:
      return "self_device";
    case DiffMetric::kCpuTotal:
      return "cpu_total";
    case DiffMetric::kDeviceTotal:
      return "device_total";
    case DiffMetric::kCount:
      return "count";
  }
  return "self";
}

double MetricValue(const DiffValues& v, DiffMetric m) {
  switch (m) {
    case DiffMetric::kSelf:
      return v.self_cpu_us + v.self_device_us;
    case DiffMetric::kSelfCpu:
      return v.self_cpu_us;
    case DiffMetric::kSelfDevice:
      return v.self_device_us;
    case DiffMetric::kCpuTotal:
      return v.cpu_total_us;
    case DiffMetric::kDeviceTotal:
      return v.device_total_us;
    case DiffMetric::kCount:
      return v.count;
  }
  return 0;
}

StepStats CountSteps(const Trace& t) {
  std::unordered_set<int64_t> seen;
  int64_t total_ns = 0;
  for (uint32_t i = 0; i < t.events.size(); ++i) {
    int64_t n = StepNumberOf(t, i);
    if (n >= 0 && seen.insert(n).second) total_ns += t.events.end_ns[i] - t.events.start_ns[i];
  }
  StepStats s;
  s.steps = static_cast<int64_t>(seen.size());
  s.mean_ns = s.steps ? total_ns / s.steps : 0;
  return s;
}

TraceDiff DiffTraces(const Trace& base, const FunctionEventList& be, const Trace& next,
                     const FunctionEventList& ne, const DiffOptions& o) {
  std::vector<AverageRow> base_rows = ComputeKeyAverages(base, be, o.keys);
  std::vector<AverageRow> next_rows = ComputeKeyAverages(next, ne, o.keys);
  return DiffRows({&base.strings, &base_rows, CountSteps(base)},
                  {&next.strings, &next_rows, CountSteps(next)}, o);
}

TraceDiff DiffRows(const DiffSide& base, const DiffSide& next, const DiffOptions& o) {
  TraceDiff d;
  d.sort = o.sort;
  d.grouped_by_input_shape = o.keys.group_by_input_shape;
  d.grouped_by_stack = o.keys.group_by_stack_n;
  const StepStats &bs = base.steps, &ns = next.steps;
  d.per_step = bs.steps > 0 && ns.steps > 0 && bs.steps != ns.steps;
  double base_scale = d.per_step ? 1.0 / bs.steps : 1.0;
  double next_scale = d.per_step ? 1.0 / ns.steps : 1.0;
  d.base = Totals(bs, *base.rows, base_scale);
  d.next = Totals(ns, *next.rows, next_scale);
  d.base.ranks = base.ranks;
  d.next.ranks = next.ranks;

  std::unordered_map<std::string, size_t> index;
  auto row_for = [&](const StringPool& t, const AverageRow& r) -> DiffRow& {
    auto [it, inserted] = index.try_emplace(RowKey(t, r, o.keys), d.rows.size());
    if (inserted) {
      DiffRow row;
      row.name = std::string(t.Get(r.key));
      row.device_type = r.device_type;
      row.annotation = r.annotation;
      if (o.keys.group_by_input_shape) row.input_shapes = std::string(t.Get(r.input_shapes));
      for (StringId f : r.stack) row.stack.emplace_back(t.Get(f));
      d.rows.push_back(std::move(row));
    }
    return d.rows[it->second];
  };
  // key_averages keys also by node id and legacy flag; rows equal as text are summed.
  auto add = [](DiffValues* to, const DiffValues& v) {
    to->count += v.count;
    to->self_cpu_us += v.self_cpu_us;
    to->cpu_total_us += v.cpu_total_us;
    to->self_device_us += v.self_device_us;
    to->device_total_us += v.device_total_us;
  };
  for (const AverageRow& r : *base.rows) {
    DiffRow& row = row_for(*base.strings, r);
    row.in_base = true;
    add(&row.base, Values(r, base_scale));
  }
  for (const AverageRow& r : *next.rows) {
    DiffRow& row = row_for(*next.strings, r);
    row.in_new = true;
    add(&row.next, Values(r, next_scale));
  }
  for (DiffRow& r : d.rows) {
    r.base_metric = MetricValue(r.base, o.sort);
    r.change = MetricValue(r.next, o.sort) - r.base_metric;
    d.added += r.in_new && !r.in_base;
    d.removed += r.in_base && !r.in_new;
  }
  std::stable_sort(d.rows.begin(), d.rows.end(), [](const DiffRow& a, const DiffRow& b) {
    if (a.annotation != b.annotation) return b.annotation;
    return std::fabs(a.change) > std::fabs(b.change);
  });
  d.ops = static_cast<size_t>(
      std::find_if(d.rows.begin(), d.rows.end(), [](const DiffRow& r) { return r.annotation; }) -
      d.rows.begin());
  return d;
}

}  // namespace profana::passes
