#include "profana/job/step_statistics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "profana/passes/efficiency/device_peaks.h"

namespace profana::job {
namespace {

double QuantileSorted(const std::vector<double>& v, double q) {
  double pos = q * static_cast<double>(v.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  double frac = pos - static_cast<double>(lo);
  if (lo + 1 >= v.size() || frac == 0) return v[lo];
  return v[lo] + frac * (v[lo + 1] - v[lo]);
}

}  // namespace

Describe DescribeValues(std::vector<double> v) {
  Describe d;
  d.count = static_cast<int64_t>(v.size());
  if (v.empty()) return d;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  d.mean = sum / static_cast<double>(v.size());
  d.median = QuantileSorted(v, 0.5);
  d.p95 = QuantileSorted(v, 0.95);
  d.min = v.front();
  d.max = v.back();
  return d;
}

const char* StepMetricName(StepMetric m) {
  static const char* const kNames[kStepMetrics] = {"wall",
                                                   "compute",
                                                   "comm_exposed",
                                                   "memory_exposed",
                                                   "idle",
                                                   "comm_hidden_share",
                                                   "host_untraced",
                                                   "host_dataloader",
                                                   "host_optimizer",
                                                   "host_sync",
                                                   "sm_efficiency",
                                                   "occupancy",
                                                   "tensor_core_share",
                                                   "mfu"};
  return kNames[static_cast<size_t>(m)];
}

bool IsPercentMetric(StepMetric m) {
  return m == StepMetric::kCommHiddenShare || m == StepMetric::kSmEfficiency ||
         m == StepMetric::kOccupancy || m == StepMetric::kTensorCoreShare || m == StepMetric::kMfu;
}

int64_t CopiedBytes(const StepDevice& d) {
  int64_t total = 0;
  for (size_t k = 0; k < passes::kCopyDirections; ++k)
    if (k != static_cast<size_t>(passes::CopyDirection::kMemset)) total += d.use.copies.bytes[k];
  return total;
}

int64_t CopyTimeNs(const StepDevice& d) {
  int64_t total = 0;
  for (size_t k = 0; k < passes::kCopyDirections; ++k)
    if (k != static_cast<size_t>(passes::CopyDirection::kMemset)) total += d.use.copies.ns[k];
  return total;
}

bool StepMetricValue(const RankStep& s, const StepDevice& d, StepMetric m, double* value) {
  int64_t ns = 0;
  switch (m) {
    case StepMetric::kWall:
      ns = s.row.wall_ns;
      break;
    case StepMetric::kCompute:
      ns = d.compute_ns;
      break;
    case StepMetric::kCommExposed:
      ns = d.comm_exposed_ns;
      break;
    case StepMetric::kMemoryExposed:
      ns = d.memory_exposed_ns;
      break;
    case StepMetric::kIdle:
      ns = d.idle_ns;
      break;
    case StepMetric::kCommHiddenShare:
      if (d.comm_ns <= 0) return false;
      *value = 100.0 * static_cast<double>(d.comm_hidden_ns) / static_cast<double>(d.comm_ns);
      return true;
    case StepMetric::kHostUntraced:
      ns = s.row.host_untraced_ns;
      break;
    case StepMetric::kHostDataloader:
      ns = s.row.host_dataloader_ns;
      break;
    case StepMetric::kHostOptimizer:
      ns = s.row.host_optimizer_ns;
      break;
    case StepMetric::kHostSync:
      ns = s.row.host_sync_ns;
      break;
    case StepMetric::kSmEfficiency:
      if (d.use.sm_busy_ns < 0 || s.row.wall_ns <= 0) return false;
      *value = 100.0 * d.use.sm_busy_ns / static_cast<double>(s.row.wall_ns);
      return true;
    case StepMetric::kOccupancy:
      if (d.use.occupancy_weight_ns <= 0) return false;
      *value = d.use.occupancy_ns / static_cast<double>(d.use.occupancy_weight_ns);
      return true;
    case StepMetric::kTensorCoreShare:
      if (d.use.kernel_ns <= 0) return false;
      *value =
          100.0 * static_cast<double>(d.use.tensor_core_ns) / static_cast<double>(d.use.kernel_ns);
      return true;
    case StepMetric::kMfu:
      if (d.use.peak_ns <= 0 || s.row.wall_ns <= 0) return false;
      *value = 100.0 * d.use.peak_ns / static_cast<double>(s.row.wall_ns);
      return true;
  }
  *value = static_cast<double>(ns);
  return true;
}

StepsOverview OverviewOfSteps(const std::vector<RankStep>& steps) {
  StepsOverview o;
  std::set<int64_t> ranks, numbers;
  std::vector<double> values[kStepMetrics];
  std::map<int64_t, std::pair<double, int64_t>> wall_by_rank;  // rank -> (sum, steps)
  for (const RankStep& s : steps) {
    ranks.insert(s.rank);
    numbers.insert(s.row.step);
    auto& w = wall_by_rank[s.rank];
    w.first += static_cast<double>(s.row.wall_ns);
    ++w.second;
    bool slower =
        s.row.wall_ns > o.slowest_wall_ns || o.slowest_rank < 0 ||
        (s.row.wall_ns == o.slowest_wall_ns &&
         std::make_pair(s.rank, s.row.step) < std::make_pair(o.slowest_rank, o.slowest_step));
    if (slower) {
      o.slowest_rank = s.rank;
      o.slowest_step = s.row.step;
      o.slowest_wall_ns = s.row.wall_ns;
    }
    for (const StepDevice& d : s.row.devices) {
      ++o.rows;
      for (size_t m = 0; m < kStepMetrics; ++m) {
        double v = 0;
        if (StepMetricValue(s, d, static_cast<StepMetric>(m), &v)) values[m].push_back(v);
      }
    }
  }
  for (size_t m = 0; m < kStepMetrics; ++m) o.metrics[m] = DescribeValues(std::move(values[m]));
  o.ranks = static_cast<int64_t>(ranks.size());
  o.steps = static_cast<int64_t>(numbers.size());
  for (const auto& [rank, w] : wall_by_rank) {
    double mean = w.first / static_cast<double>(w.second);
    if (o.slowest_mean_rank < 0 || mean > o.slowest_mean_wall_ns) {
      o.slowest_mean_rank = rank;
      o.slowest_mean_wall_ns = mean;
    }
  }
  return o;
}

bool AchievedFlops(const RankStep& s, const StepDevice& d, double* flops_per_second) {
  if (d.use.flops <= 0 || s.row.wall_ns <= 0) return false;
  *flops_per_second = d.use.flops / static_cast<double>(s.row.wall_ns) * 1e9;
  return true;
}

void UsePeakForAllFlops(double tflops, std::vector<RankStep>* steps) {
  for (RankStep& s : *steps)
    for (StepDevice& d : s.row.devices) {
      d.use.peak_ns = d.use.flops / (tflops * 1e12) * 1e9;
      d.use.unpeaked_flops = 0;
    }
}

std::vector<std::string> DevicesWithoutPeak(const RankSummary& job) {
  bool unpeaked = false;
  for (const RankStep& s : job.steps)
    for (const StepDevice& d : s.row.devices) unpeaked = unpeaked || d.use.unpeaked_flops > 0;
  std::set<std::string> names;
  if (!unpeaked) return {};
  for (const SourceInfo& src : job.sources)
    for (const std::string& name : src.devices)
      if (!passes::PeakOfDevice(name)) names.insert(name.empty() ? "(unnamed)" : name);
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace profana::job
