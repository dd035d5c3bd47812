#include "profana/reporters/steps_reporter.h"

#include <cmath>

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

std::string Megabytes(int64_t bytes) { return Fixed(static_cast<double>(bytes) / 1e6, 3); }

// Achieved TFLOP/s of a row, "-" (text) or "" (CSV) without FLOPs.
std::string Teraflops(const job::RankStep& s, const job::StepDevice& d, bool csv) {
  double v = 0;
  if (!job::AchievedFlops(s, d, &v)) return csv ? "" : "-";
  return Fixed(v / 1e12, 3);
}

std::string Number(double v) { return fmt::format("{}", v); }

Grid RowsGrid(const StepsReport& r, bool csv) {
  Grid g;
  if (csv)
    g.headers = {"rank",
                 "step",
                 "device",
                 "wall_us",
                 "compute_us",
                 "comm_exposed_us",
                 "memory_exposed_us",
                 "idle_us",
                 "comm_us",
                 "comm_hidden_pct",
                 "host_us",
                 "host_untraced_us",
                 "host_dataloader_us",
                 "host_optimizer_us",
                 "host_sync_us",
                 "sm_efficiency_pct",
                 "occupancy_pct",
                 "tensor_core_pct",
                 "kernel_us",
                 "tensor_core_us",
                 "memory_us",
                 "copy_bytes",
                 "copy_us",
                 "copy_gbps",
                 "htod_bytes",
                 "dtoh_bytes",
                 "dtod_bytes",
                 "htoh_bytes",
                 "ptop_bytes",
                 "other_copy_bytes",
                 "memset_bytes",
                 "pageable_bytes",
                 "pinned_bytes",
                 "mfu_pct",
                 "achieved_tflops",
                 "flops",
                 "unpeaked_flops",
                 "flops_at_peak_us",
                 "copy_overlap_count",
                 "copy_overlap_us",
                 "copy_stall_count",
                 "copy_stall_us"};
  else
    g.headers = {"Rank",         "Step",           "Device",    "Wall (us)",     "Compute",
                 "Exposed comm", "Exposed memcpy", "Idle",      "Comm hidden %", "Host untraced",
                 "Dataloader",   "Optimizer",      "Sync wait", "SM eff %",      "Occupancy %",
                 "TC %",         "MFU %",          "TFLOP/s",   "Copied (MB)",   "Copy GB/s",
                 "Copy stall"};
  for (const job::RankStep& s : *r.steps)
    for (const job::StepDevice& d : s.row.devices) {
      int64_t copied = job::CopiedBytes(d), copy_ns = job::CopyTimeNs(d);
      const passes::CopyTotals& c = d.use.copies;
      auto bytes = [&](passes::CopyDirection k) {
        return fmt::format("{}", c.bytes[static_cast<size_t>(k)]);
      };
      if (csv)
        g.AddRow({fmt::format("{}", s.rank),
                  fmt::format("{}", s.row.step),
                  DeviceText(d.device),
                  MicrosText(s.row.wall_ns),
                  MicrosText(d.compute_ns),
                  MicrosText(d.comm_exposed_ns),
                  MicrosText(d.memory_exposed_ns),
                  MicrosText(d.idle_ns),
                  MicrosText(d.comm_ns),
                  d.comm_ns > 0 ? Share(d) : "",
                  MicrosText(s.row.host_ns),
                  MicrosText(s.row.host_untraced_ns),
                  MicrosText(s.row.host_dataloader_ns),
                  MicrosText(s.row.host_optimizer_ns),
                  MicrosText(s.row.host_sync_ns),
                  Percent(s, d, StepMetric::kSmEfficiency, true),
                  Percent(s, d, StepMetric::kOccupancy, true),
                  Percent(s, d, StepMetric::kTensorCoreShare, true),
                  MicrosText(d.use.kernel_ns),
                  MicrosText(d.use.tensor_core_ns),
                  MicrosText(d.memory_ns),
                  fmt::format("{}", copied),
                  MicrosText(copy_ns),
                  Bandwidth(copied, copy_ns, true),
                  bytes(passes::CopyDirection::kHtoD),
                  bytes(passes::CopyDirection::kDtoH),
                  bytes(passes::CopyDirection::kDtoD),
                  bytes(passes::CopyDirection::kHtoH),
                  bytes(passes::CopyDirection::kPtoP),
                  bytes(passes::CopyDirection::kOther),
                  bytes(passes::CopyDirection::kMemset),
                  fmt::format("{}", c.pageable_bytes),
                  fmt::format("{}", c.pinned_bytes),
                  Percent(s, d, StepMetric::kMfu, true),
                  Teraflops(s, d, true),
                  Number(d.use.flops),
                  Number(d.use.unpeaked_flops),
                  Fixed(d.use.peak_ns / 1000.0, 3),
                  fmt::format("{}", d.copy_overlap_count),
                  MicrosText(d.copy_overlap_ns),
                  fmt::format("{}", d.copy_stall_count),
                  MicrosText(d.copy_stall_ns)});
      else
        g.AddRow({fmt::format("{}", s.rank),
                  fmt::format("{}", s.row.step),
                  DeviceText(d.device),
                  MicrosText(s.row.wall_ns),
                  MicrosText(d.compute_ns),
                  MicrosText(d.comm_exposed_ns),
                  MicrosText(d.memory_exposed_ns),
                  MicrosText(d.idle_ns),
                  Share(d),
                  MicrosText(s.row.host_untraced_ns),
                  MicrosText(s.row.host_dataloader_ns),
                  MicrosText(s.row.host_optimizer_ns),
                  MicrosText(s.row.host_sync_ns),
                  Percent(s, d, StepMetric::kSmEfficiency, false),
                  Percent(s, d, StepMetric::kOccupancy, false),
                  Percent(s, d, StepMetric::kTensorCoreShare, false),
                  Percent(s, d, StepMetric::kMfu, false),
                  Teraflops(s, d, false),
                  Megabytes(copied),
                  Bandwidth(copied, copy_ns, false),
                  MicrosText(d.copy_stall_ns)});
    }
  return g;
}

const char* MetricLabel(StepMetric m) {
  switch (m) {
    case StepMetric::kWall:
      return "Wall (us)";
    case StepMetric::kCompute:
      return "Compute (us)";
    case StepMetric::kCommExposed:
      return "Exposed comm (us)";
    case StepMetric::kMemoryExposed:
      return "Exposed memcpy (us)";
    case StepMetric::kIdle:
      return "Idle (us)";
    case StepMetric::kCommHiddenShare:
      return "Comm hidden (%)";
    case StepMetric::kHostUntraced:
      return "Host untraced (us)";
    case StepMetric::kHostDataloader:
      return "Dataloader (us)";
    case StepMetric::kHostOptimizer:
      return "Optimizer (us)";
    case StepMetric::kHostSync:
      return "Sync wait (us)";
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

// Nanosecond statistics print as microseconds; the shares as percents.
std::string Stat(StepMetric m, double v) {
  return job::IsPercentMetric(m) ? Fixed(v, 1) : Fixed(v / 1000.0, 3);
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
      "Slowest step: ProfilerStep#{} on rank {} ({} us). Slowest rank: {} (mean step {} us).\n",
      o.slowest_step, o.slowest_rank, MicrosText(o.slowest_wall_ns), o.slowest_mean_rank,
      Fixed(o.slowest_mean_wall_ns / 1000.0, 3));
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
