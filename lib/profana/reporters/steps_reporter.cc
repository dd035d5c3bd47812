#include "profana/reporters/steps_reporter.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "fmt/format.h"
#include "profana/reporters/grid.h"
#include "profana/reporters/job_header.h"

namespace profana::report {
namespace {

using job::StepMetric;

std::string Share(const job::StepDevice& d) {
  if (d.comm_ns <= 0) return "-";
  return Fixed(100.0 * static_cast<double>(d.comm_hidden_ns) / static_cast<double>(d.comm_ns), 1);
}

std::string DeviceText(int32_t device) { return device < 0 ? "-" : fmt::format("{}", device); }

// A metric of one row as text: a percent with one decimal, "-" (text) or "" (CSV) when undefined.
std::string Percent(const job::RankStep& s, const job::StepDevice& d, StepMetric m, bool csv) {
  double v = 0;
  if (!job::StepMetricValue(s, d, m, &v)) return csv ? "" : "-";
  return Fixed(v, csv ? 4 : 1);
}

// Bytes per nanosecond are GB/s.
std::string Bandwidth(int64_t bytes, int64_t ns, bool csv) {
  if (ns <= 0) return csv ? "" : "-";
  return Fixed(static_cast<double>(bytes) / static_cast<double>(ns), 3);
}

// Achieved TFLOP/s of a row, "-" (text) or "" (CSV) without FLOPs.
std::string Teraflops(const job::RankStep& s, const job::StepDevice& d, bool csv) {
  double v = 0;
  if (!job::AchievedFlops(s, d, &v)) return csv ? "" : "-";
  return Fixed(v / 1e12, 3);
}

std::string Number(double v) { return fmt::format("{}", v); }
std::string Whole(int64_t v) { return fmt::format("{}", v); }

// What a cell is made from: a row (rank, step, device) and whether the cell is CSV's.
struct StepCell {
  const job::RankStep& s;
  const job::StepDevice& d;
  bool csv;
  const passes::CopyTotals& copies() const { return d.use.copies; }
  std::string Bytes(passes::CopyDirection k) const {
    return Whole(copies().bytes[static_cast<size_t>(k)]);
  }
};

// One column of the rows: its CSV header, and its text and Markdown header and place among
// them (text_at: the column's index there; -1: CSV only), and its cell.
struct StepColumn {
  const char* csv;
  const char* text;
  int text_at;
  std::string (*cell)(const StepCell&);
};

// Every column of the rows, in CSV order.
const StepColumn kStepColumns[] = {
    {"rank", "Rank", 0, [](const StepCell& c) { return Whole(c.s.rank); }},
    {"step", "Step", 1, [](const StepCell& c) { return Whole(c.s.row.step); }},
    {"device", "Device", 2, [](const StepCell& c) { return DeviceText(c.d.device); }},
    {"wall_us", "Wall", 3, [](const StepCell& c) { return DurationCell(c.s.row.wall_ns, c.csv); }},
    {"compute_us", "Compute", 4,
     [](const StepCell& c) { return DurationCell(c.d.compute_ns, c.csv); }},
    {"comm_exposed_us", "Exposed comm", 5,
     [](const StepCell& c) { return DurationCell(c.d.comm_exposed_ns, c.csv); }},
    {"memory_exposed_us", "Exposed memcpy", 6,
     [](const StepCell& c) { return DurationCell(c.d.memory_exposed_ns, c.csv); }},
    {"idle_us", "Idle", 7, [](const StepCell& c) { return DurationCell(c.d.idle_ns, c.csv); }},
    {"comm_us", nullptr, -1, [](const StepCell& c) { return DurationCell(c.d.comm_ns, c.csv); }},
    {"comm_hidden_pct", "Comm hidden %", 8,
     [](const StepCell& c) { return c.csv && c.d.comm_ns <= 0 ? std::string() : Share(c.d); }},
    {"host_us", nullptr, -1,
     [](const StepCell& c) { return DurationCell(c.s.row.host_ns, c.csv); }},
    {"host_untraced_us", "Host untraced", 9,
     [](const StepCell& c) { return DurationCell(c.s.row.host_untraced_ns, c.csv); }},
    {"host_dataloader_us", "Dataloader", 10,
     [](const StepCell& c) { return DurationCell(c.s.row.host_dataloader_ns, c.csv); }},
    {"host_optimizer_us", "Optimizer", 11,
     [](const StepCell& c) { return DurationCell(c.s.row.host_optimizer_ns, c.csv); }},
    {"host_sync_us", "Sync wait", 12,
     [](const StepCell& c) { return DurationCell(c.s.row.host_sync_ns, c.csv); }},
    {"sm_efficiency_pct", "SM eff %", 13,
     [](const StepCell& c) { return Percent(c.s, c.d, StepMetric::kSmEfficiency, c.csv); }},
    {"occupancy_pct", "Occupancy %", 14,
     [](const StepCell& c) { return Percent(c.s, c.d, StepMetric::kOccupancy, c.csv); }},
    {"tensor_core_pct", "TC %", 15,
     [](const StepCell& c) { return Percent(c.s, c.d, StepMetric::kTensorCoreShare, c.csv); }},
    {"kernel_us", nullptr, -1,
     [](const StepCell& c) { return DurationCell(c.d.use.kernel_ns, c.csv); }},
    {"tensor_core_us", nullptr, -1,
     [](const StepCell& c) { return DurationCell(c.d.use.tensor_core_ns, c.csv); }},
    {"memory_us", nullptr, -1,
     [](const StepCell& c) { return DurationCell(c.d.memory_ns, c.csv); }},
    {"copy_bytes", "Copied", 18,
     [](const StepCell& c) { return SizeCell(job::CopiedBytes(c.d), c.csv); }},
    {"copy_us", nullptr, -1,
     [](const StepCell& c) { return DurationCell(job::CopyTimeNs(c.d), c.csv); }},
    {"copy_gbps", "Copy GB/s", 19,
     [](const StepCell& c) {
       return Bandwidth(job::CopiedBytes(c.d), job::CopyTimeNs(c.d), c.csv);
     }},
    {"htod_bytes", nullptr, -1,
     [](const StepCell& c) { return c.Bytes(passes::CopyDirection::kHtoD); }},
    {"dtoh_bytes", nullptr, -1,
     [](const StepCell& c) { return c.Bytes(passes::CopyDirection::kDtoH); }},
    {"dtod_bytes", nullptr, -1,
     [](const StepCell& c) { return c.Bytes(passes::CopyDirection::kDtoD); }},
    {"htoh_bytes", nullptr, -1,
     [](const StepCell& c) { return c.Bytes(passes::CopyDirection::kHtoH); }},
    {"ptop_bytes", nullptr, -1,
     [](const StepCell& c) { return c.Bytes(passes::CopyDirection::kPtoP); }},
    {"other_copy_bytes", nullptr, -1,
     [](const StepCell& c) { return c.Bytes(passes::CopyDirection::kOther); }},
    {"memset_bytes", nullptr, -1,
     [](const StepCell& c) { return c.Bytes(passes::CopyDirection::kMemset); }},
    {"pageable_bytes", nullptr, -1,
     [](const StepCell& c) { return Whole(c.copies().pageable_bytes); }},
    {"pinned_bytes", nullptr, -1, [](const StepCell& c) { return Whole(c.copies().pinned_bytes); }},
    {"mfu_pct", "MFU %", 16,
     [](const StepCell& c) { return Percent(c.s, c.d, StepMetric::kMfu, c.csv); }},
    {"achieved_tflops", "TFLOP/s", 17,
     [](const StepCell& c) { return Teraflops(c.s, c.d, c.csv); }},
    {"flops", nullptr, -1, [](const StepCell& c) { return Number(c.d.use.flops); }},
    {"unpeaked_flops", nullptr, -1,
     [](const StepCell& c) { return Number(c.d.use.unpeaked_flops); }},
    {"flops_at_peak_us", nullptr, -1,
     [](const StepCell& c) { return DurationCellUs(c.d.use.peak_ns / 1000.0, c.csv); }},
    {"copy_overlap_count", nullptr, -1,
     [](const StepCell& c) { return Whole(c.d.copy_overlap_count); }},
    {"copy_overlap_us", nullptr, -1,
     [](const StepCell& c) { return DurationCell(c.d.copy_overlap_ns, c.csv); }},
    {"copy_stall_count", nullptr, -1,
     [](const StepCell& c) { return Whole(c.d.copy_stall_count); }},
    {"copy_stall_us", "Copy stall", 20,
     [](const StepCell& c) { return DurationCell(c.d.copy_stall_ns, c.csv); }},
};

// The columns a format shows, in its order.
std::vector<const StepColumn*> StepColumnsOf(bool csv) {
  std::vector<const StepColumn*> shown;
  for (const StepColumn& c : kStepColumns)
    if (csv || c.text) shown.push_back(&c);
  if (!csv)
    std::sort(shown.begin(), shown.end(),
              [](const StepColumn* a, const StepColumn* b) { return a->text_at < b->text_at; });
  return shown;
}

Grid RowsGrid(const StepsReport& r, bool csv) {
  Grid g;
  std::vector<const StepColumn*> columns = StepColumnsOf(csv);
  for (const StepColumn* c : columns) g.headers.push_back(csv ? c->csv : c->text);
  for (const job::RankStep& s : *r.steps)
    for (const job::StepDevice& d : s.row.devices) {
      StepCell cell{s, d, csv};
      std::vector<std::string> row;
      for (const StepColumn* c : columns) row.push_back(c->cell(cell));
      g.AddRow(std::move(row));
    }
  return g;
}

const char* MetricLabel(StepMetric m) {
  switch (m) {
    case StepMetric::kWall:
      return "Wall";
    case StepMetric::kCompute:
      return "Compute";
    case StepMetric::kCommExposed:
      return "Exposed comm";
    case StepMetric::kMemoryExposed:
      return "Exposed memcpy";
    case StepMetric::kIdle:
      return "Idle";
    case StepMetric::kCommHiddenShare:
      return "Comm hidden (%)";
    case StepMetric::kHostUntraced:
      return "Host untraced";
    case StepMetric::kHostDataloader:
      return "Dataloader";
    case StepMetric::kHostOptimizer:
      return "Optimizer";
    case StepMetric::kHostSync:
      return "Sync wait";
    case StepMetric::kSmEfficiency:
      return "SM efficiency (%)";
    case StepMetric::kOccupancy:
      return "Occupancy (%)";
    case StepMetric::kTensorCoreShare:
      return "Tensor Cores (%)";
    case StepMetric::kMfu:
      return "MFU (%)";
  }
  return "";
}

// Nanosecond statistics print as durations; the shares as percents.
std::string Stat(StepMetric m, double v) {
  return job::IsPercentMetric(m) ? Fixed(v, 1) : DurationCellUs(v / 1000.0, false);
}

Grid OverviewGrid(const StepsReport& r) {
  Grid g;
  g.headers = {"Metric", "Mean", "Median", "P95", "Min", "Max"};
  g.left = {true};
  for (size_t i = 0; i < job::kStepMetrics; ++i) {
    auto m = static_cast<StepMetric>(i);
    const job::Describe& d = r.overview.metrics[i];
    if (d.count == 0) {
      g.AddRow({MetricLabel(m), "-", "-", "-", "-", "-"});
      continue;
    }
    g.AddRow({MetricLabel(m), Stat(m, d.mean), Stat(m, d.median), Stat(m, d.p95), Stat(m, d.min),
              Stat(m, d.max)});
  }
  return g;
}

std::string Heading(const StepsReport& r) {
  const job::StepsOverview& o = r.overview;
  return fmt::format("Step time breakdown: {} step{} on {} rank{} ({})", o.steps,
                     o.steps == 1 ? "" : "s", r.ranks.size(), r.ranks.size() == 1 ? "" : "s",
                     job::FormatRankList(r.ranks));
}

std::string SlowestText(const StepsReport& r) {
  const job::StepsOverview& o = r.overview;
  if (o.slowest_rank < 0 && o.rows == 0) return "No ProfilerStep#N markers: no steps.\n";
  return fmt::format(
      "Slowest step: ProfilerStep#{} on rank {} ({}). Slowest rank: {} (mean step {}).\n",
      o.slowest_step, o.slowest_rank, DurationCell(o.slowest_wall_ns, false), o.slowest_mean_rank,
      DurationCellUs(o.slowest_mean_wall_ns / 1000.0, false));
}

// A row's efficiency: the shares as fractions (null when undefined), the sums they come from,
// and the copies by direction.
void WriteEfficiency(JsonWriter& w, const job::RankStep& s, const job::StepDevice& d) {
  auto share = [&](const char* key, StepMetric m) {
    double v = 0;
    w.Key(key);
    job::StepMetricValue(s, d, m, &v) ? w.Double(v / 100.0) : w.Null();
  };
  share("sm_efficiency", StepMetric::kSmEfficiency);
  share("occupancy", StepMetric::kOccupancy);
  share("tensor_core_share", StepMetric::kTensorCoreShare);
  share("mfu", StepMetric::kMfu);
  double achieved = 0;
  w.Key("achieved_flops_per_s");
  job::AchievedFlops(s, d, &achieved) ? w.Double(achieved) : w.Null();
  w.Key("flops").Double(d.use.flops);
  w.Key("unpeaked_flops").Double(d.use.unpeaked_flops);
  w.Key("flops_at_peak").Double(d.use.peak_ns / 1000.0);
  w.Key("copy_overlap").BeginObject();
  w.Key("count").Int(d.copy_overlap_count);
  w.Key("time").Micros(d.copy_overlap_ns);
  w.EndObject();
  w.Key("copy_stall").BeginObject();
  w.Key("count").Int(d.copy_stall_count);
  w.Key("time").Micros(d.copy_stall_ns);
  w.EndObject();
  w.Key("kernel").Micros(d.use.kernel_ns);
  w.Key("tensor_core").Micros(d.use.tensor_core_ns);
  w.Key("memory").Micros(d.memory_ns);
  int64_t copied = job::CopiedBytes(d), copy_ns = job::CopyTimeNs(d);
  w.Key("copy_bytes").Int(copied);
  w.Key("copy_bandwidth_gbps");
  copy_ns > 0 ? w.Double(static_cast<double>(copied) / static_cast<double>(copy_ns)) : w.Null();
  w.Key("copies").BeginObject();
  for (size_t k = 0; k < passes::kCopyDirections; ++k) {
    const passes::CopyTotals& c = d.use.copies;
    w.Key(passes::CopyDirectionName(static_cast<passes::CopyDirection>(k))).BeginObject();
    w.Key("count").Int(c.count[k]);
    w.Key("bytes").Int(c.bytes[k]);
    w.Key("time").Micros(c.ns[k]);
    w.Key("bandwidth_gbps");
    c.ns[k] > 0 ? w.Double(static_cast<double>(c.bytes[k]) / static_cast<double>(c.ns[k]))
                : w.Null();
    w.EndObject();
  }
  w.EndObject();
  w.Key("pageable_bytes").Int(d.use.copies.pageable_bytes);
  w.Key("pinned_bytes").Int(d.use.copies.pinned_bytes);
}

}  // namespace

std::string FormatStepsText(const StepsReport& r) {
  std::string out = Heading(r) + "\n\n";
  if (r.steps->empty()) return out + SlowestText(r);
  out += RowsGrid(r, false).Text();
  out += fmt::format("\nAcross {} row{} (rank, step, device):\n", r.overview.rows,
                     r.overview.rows == 1 ? "" : "s");
  out += OverviewGrid(r).Text();
  out += "\n" + SlowestText(r);
  return out;
}

std::string FormatStepsMarkdown(const StepsReport& r) {
  std::string out = "### " + Heading(r) + "\n\n";
  if (r.steps->empty()) return out + SlowestText(r);
  out += RowsGrid(r, false).Markdown();
  out += "\n";
  out += OverviewGrid(r).Markdown();
  out += "\n" + SlowestText(r);
  return out;
}

std::string FormatStepsCsv(const StepsReport& r) { return RowsGrid(r, true).Csv(); }

std::string FormatStepsJson(const StepsReport& r) {
  std::string out;
  JsonWriter w(&out);
  const job::StepsOverview& o = r.overview;
  WriteJobHeader(w, "profana.steps/1", r.inputs, r.ranks);
  w.Key("steps").BeginArray();
  for (const job::RankStep& s : *r.steps)
    for (const job::StepDevice& d : s.row.devices) {
      w.BeginObject();
      w.Key("rank").Int(s.rank);
      w.Key("step").Int(s.row.step);
      w.Key("device");
      d.device < 0 ? w.Null() : w.Int(d.device);
      w.Key("wall").Micros(s.row.wall_ns);
      w.Key("compute").Micros(d.compute_ns);
      w.Key("comm_exposed").Micros(d.comm_exposed_ns);
      w.Key("memory_exposed").Micros(d.memory_exposed_ns);
      w.Key("idle").Micros(d.idle_ns);
      w.Key("comm").Micros(d.comm_ns);
      w.Key("comm_hidden").Micros(d.comm_hidden_ns);
      w.Key("comm_hidden_share");
      d.comm_ns > 0
          ? w.Double(static_cast<double>(d.comm_hidden_ns) / static_cast<double>(d.comm_ns))
          : w.Null();
      w.Key("host").Micros(s.row.host_ns);
      w.Key("host_untraced").Micros(s.row.host_untraced_ns);
      w.Key("host_dataloader").Micros(s.row.host_dataloader_ns);
      w.Key("host_optimizer").Micros(s.row.host_optimizer_ns);
      w.Key("host_sync").Micros(s.row.host_sync_ns);
      WriteEfficiency(w, s, d);
      w.EndObject();
    }
  w.EndArray();
  w.Key("summary").BeginObject();
  for (size_t i = 0; i < job::kStepMetrics; ++i) {
    auto m = static_cast<StepMetric>(i);
    const job::Describe& d = o.metrics[i];
    w.Key(job::StepMetricName(m)).BeginObject();
    w.Key("count").Int(d.count);
    // Times in microseconds; the shares as fractions (0..1), like comm_hidden_share above.
    double scale = job::IsPercentMetric(m) ? 0.01 : 0.001;
    auto num = [&](const char* key, double v) {
      w.Key(key);
      d.count ? w.Double(v * scale) : w.Null();
    };
    num("mean", d.mean);
    num("median", d.median);
    num("p95", d.p95);
    num("min", d.min);
    num("max", d.max);
    w.EndObject();
  }
  w.EndObject();
  w.Key("slowest_step");
  if (o.slowest_rank < 0) {
    w.Null();
  } else {
    w.BeginObject();
    w.Key("rank").Int(o.slowest_rank);
    w.Key("step").Int(o.slowest_step);
    w.Key("wall").Micros(o.slowest_wall_ns);
    w.EndObject();
  }
  w.Key("slowest_rank");
  if (o.slowest_mean_rank < 0) {
    w.Null();
  } else {
    w.BeginObject();
    w.Key("rank").Int(o.slowest_mean_rank);
    w.Key("mean_wall").Double(o.slowest_mean_wall_ns / 1000.0);
    w.EndObject();
  }
  w.EndObject();
  return out;
}

std::string FormatStepsAs(OutputFormat format, const StepsReport& r) {
  switch (format) {
    case OutputFormat::kJson:
      return FormatStepsJson(r);
    case OutputFormat::kCsv:
      return FormatStepsCsv(r);
    case OutputFormat::kMarkdown:
      return FormatStepsMarkdown(r);
    default:
      return FormatStepsText(r);
  }
}

}  // namespace profana::report
