#include "profana/job/job_budget.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "fmt/format.h"
#include "profana/job/step_statistics.h"
#include "profana/passes/kernel_names.h"
#include "profana/passes/trace_filter.h"

namespace profana::job {
namespace {

using passes::BudgetMetric;
using passes::BudgetRule;

Status Unmeasurable(const BudgetRule& r, const std::string& why) {
  return Status(ErrorCode::kInvalidArgument,
                fmt::format("rules[{}] ({}): {}", r.index, r.name, why));
}

// One value of a per_step rule, and where it was measured ("rank 1, step 2").
struct Candidate {
  double value = 0;
  std::string where;
};

// The value a per_step rule reports: the candidate furthest past a limit, else the highest
// (the lowest when the rule has only "min").
Candidate Worst(const BudgetRule& r, const std::vector<Candidate>& all) {
  auto excess = [&](double v) {
    double e = 0;
    if (r.max && v > *r.max) e = std::max(e, v - *r.max);
    if (r.min && v < *r.min) e = std::max(e, *r.min - v);
    return e;
  };
  bool highest = r.max.has_value();
  const Candidate* best = &all.front();
  for (const Candidate& c : all) {
    double ec = excess(c.value), eb = excess(best->value);
    if (ec > eb || (ec == eb && (highest ? c.value > best->value : c.value < best->value)))
      best = &c;
  }
  return *best;
}

// Per rank, the mean wall time of its steps, in ns.
std::map<int64_t, double> RankMeanWalls(const std::vector<RankStep>& steps) {
  // rank -> (wall sum, steps); 128 bits: summary files from many ranks add up (widened, as the
  // shares below are)
  std::map<int64_t, std::pair<__int128, int64_t>> sums;
  for (const RankStep& s : steps) {
    sums[s.rank].first += s.row.wall_ns;
    ++sums[s.rank].second;
  }
  std::map<int64_t, double> means;
  for (const auto& [rank, sum] : sums)
    means[rank] = static_cast<double>(sum.first) / static_cast<double>(sum.second);
  return means;
}

Result<Candidate> StepTimeMetric(const BudgetRule& r, const std::vector<RankStep>& steps) {
  if (steps.empty()) return Unmeasurable(r, "the job has no ProfilerStep#N markers");
  std::vector<Candidate> all;
  if (!r.per_step) {
    std::map<int64_t, double> means = RankMeanWalls(steps);
    if (r.metric == BudgetMetric::kMaxStepTime) {
      for (const auto& [rank, mean] : means)
        all.push_back({mean / 1000.0, fmt::format("rank {}", rank)});
      Candidate c = all.front();  // the slowest rank, the lower one on a tie
      for (const Candidate& a : all)
        if (a.value > c.value) c = a;
      return c;
    }
    auto [lo, hi] = std::minmax_element(means.begin(), means.end(),
                                        [](auto& a, auto& b) { return a.second < b.second; });
    if (means.size() == 1) return Candidate{0, "one rank"};
    return Candidate{(hi->second - lo->second) / 1000.0,
                     fmt::format("rank {} against rank {}", hi->first, lo->first)};
  }
  if (r.metric == BudgetMetric::kMaxStepTime) {
    for (const RankStep& s : steps)
      all.push_back({s.row.wall_ns / 1000.0, fmt::format("rank {}, step {}", s.rank, s.row.step)});
    return Worst(r, all);
  }
  std::map<int64_t, std::pair<int64_t, int64_t>> range;  // step -> (shortest, longest) wall
  for (const RankStep& s : steps) {
    auto [it, added] = range.emplace(s.row.step, std::make_pair(s.row.wall_ns, s.row.wall_ns));
    it->second.first = std::min(it->second.first, s.row.wall_ns);
    it->second.second = std::max(it->second.second, s.row.wall_ns);
  }
  for (const auto& [step, walls] : range)
    all.push_back({(walls.second - walls.first) / 1000.0, fmt::format("step {}", step)});
  return Worst(r, all);
}

Result<Candidate> StepShareMetric(const BudgetRule& r, const std::vector<RankStep>& steps) {
  if (steps.empty()) return Unmeasurable(r, "the job has no ProfilerStep#N markers");
  int32_t device = -1;  // "0" or "cuda:0"; a name that is neither matches no device
  if (!r.device.empty()) {
    Result<int32_t> index = passes::ParseDeviceIndex(r.device);
    device = index.ok() ? *index : -2;
  }
  // Each row's part and whole: exposed communication or idle time, or the SM efficiency's
  // integral, over the step wall; Tensor Core time over kernel time. Rows without the whole
  // (no kernel, no blocks per SM) are left out.
  auto measure = [&](const RankStep& s, const StepDevice& d, double* p, double* w) {
    switch (r.metric) {
      case BudgetMetric::kCommExposedShare:
        *p = static_cast<double>(d.comm_exposed_ns), *w = static_cast<double>(s.row.wall_ns);
        return true;
      case BudgetMetric::kSmEfficiency:
        if (d.use.sm_busy_ns < 0) return false;
        *p = d.use.sm_busy_ns, *w = static_cast<double>(s.row.wall_ns);
        return true;
      case BudgetMetric::kTensorCoreShare:
        *p = static_cast<double>(d.use.tensor_core_ns), *w = static_cast<double>(d.use.kernel_ns);
        return d.use.kernel_ns > 0;
      case BudgetMetric::kMfu:
        *p = d.use.peak_ns, *w = static_cast<double>(s.row.wall_ns);
        return d.use.peak_ns > 0;
      default:
        *p = static_cast<double>(d.idle_ns), *w = static_cast<double>(s.row.wall_ns);
        return true;
    }
  };
  // Doubles: the SM efficiency's integral is fractional; a ratio needs no exact sum.
  double part = 0, whole = 0;
  std::vector<Candidate> all;
  for (const RankStep& s : steps) {
    for (const StepDevice& d : s.row.devices) {
      if (d.device < 0 || s.row.wall_ns <= 0) continue;  // no device activity in the trace
      if (!r.device.empty() && d.device != device) continue;
      double p = 0, w = 0;
      if (!measure(s, d, &p, &w)) continue;
      part += p;
      whole += w;
      all.push_back(
          {p / w, fmt::format("rank {}, step {}, device {}", s.rank, s.row.step, d.device)});
    }
  }
  if (all.empty()) {
    const char* what = r.metric == BudgetMetric::kSmEfficiency
                           ? "no kernel with blocks per SM (or a grid and the device's SM count)"
                       : r.metric == BudgetMetric::kTensorCoreShare ? "no kernel"
                       : r.metric == BudgetMetric::kMfu
                           ? "no op with FLOPs on a device and a type the peak table knows "
                             "(record_shapes=True)"
                           : "no device activity";
    return Unmeasurable(r, fmt::format("the job has {} in its steps{}", what,
                                       r.device.empty() ? "" : " on device " + r.device));
  }
  if (r.per_step) return Worst(r, all);
  return Candidate{part / whole, ""};
}

Result<Candidate> KernelShare(const BudgetRule& r, const KernelStats& stats) {
  __int128 part = 0, total = 0;
  bool found = false;
  for (const auto& [name, k] : stats.kernels) {
    total += k.duration.sum();
    if (name == r.op || passes::ShortKernelName(name) == r.op) {
      part += k.duration.sum();
      found = true;
    }
  }
  if (total <= 0) return Unmeasurable(r, "the job has no device activity");
  return Candidate{static_cast<double>(part) / static_cast<double>(total),
                   found ? "" : "kernel not in the job"};
}

}  // namespace

Result<std::vector<passes::RuleResult>> EvaluateJobBudget(const JobSummary& job,
                                                          const passes::Budget& budget) {
  PROFANA_ASSIGN_OR_RETURN(RankSummary all, job.Combine());
  passes::StepStats steps = JobStepStats(all);
  auto name = [&all](StringId id) { return all.strings.Get(id); };
  std::vector<passes::RuleResult> out;
  for (const BudgetRule& r : budget.rules) {
    const char* metric = passes::BudgetMetricName(r.metric);
    if (passes::NeedsSingleTrace(r.metric))
      return Unmeasurable(
          r, fmt::format("{} needs a single trace, and this is a job of {} rank{} ({})", metric,
                         all.sources.size(), all.sources.size() == 1 ? "" : "s",
                         r.metric == BudgetMetric::kPeakMemory
                             ? "check one rank's trace"
                             : "idle_share measures device idle per step on a job"));
    passes::RuleResult res;
    res.rule = r;
    std::optional<Candidate> c;
    switch (r.metric) {
      case BudgetMetric::kMaxStepTime:
      case BudgetMetric::kRankSkew: {
        PROFANA_ASSIGN_OR_RETURN(c, StepTimeMetric(r, all.steps));
        break;
      }
      case BudgetMetric::kCommExposedShare:
      case BudgetMetric::kIdleShare:
      case BudgetMetric::kSmEfficiency:
      case BudgetMetric::kTensorCoreShare: {
        PROFANA_ASSIGN_OR_RETURN(c, StepShareMetric(r, all.steps));
        break;
      }
      case BudgetMetric::kMfu: {
        if (!r.peak_tflops) {
          PROFANA_ASSIGN_OR_RETURN(c, StepShareMetric(r, all.steps));
          break;
        }
        std::vector<RankStep> at_peak = all.steps;
        UsePeakForAllFlops(*r.peak_tflops, &at_peak);
        PROFANA_ASSIGN_OR_RETURN(c, StepShareMetric(r, at_peak));
        break;
      }
      case BudgetMetric::kKernelShare: {
        PROFANA_ASSIGN_OR_RETURN(c, KernelShare(r, all.kernels));
        break;
      }
      case BudgetMetric::kAdviceSaving:
      case BudgetMetric::kAdviceCount:
        return Status(ErrorCode::kInternal,
                      fmt::format("rules[{}] ({}): measured by profana advise", r.index, r.name));
      case BudgetMetric::kStepTime:
        if (steps.steps == 0) return Unmeasurable(r, "the job has no ProfilerStep#N markers");
        c = Candidate{steps.mean_ns / 1000.0, ""};
        break;
      default: {
        // Key-average metrics: the ranks summed; per_step divides by the (rank, step) pairs.
        if (r.per_step && steps.steps == 0)
          return Unmeasurable(r, "per_step needs ProfilerStep#N markers; the job has none");
        bool op_missing = false;
        double v = passes::MeasureKeyAverages(r, all.rows, name, &op_missing);
        if (r.per_step) v /= static_cast<double>(steps.steps);
        c = Candidate{v, op_missing ? "op not in the job" : ""};
      }
    }
    res.value = c->value;
    res.note = c->where;
    res.passed = passes::RuleHolds(r, res.value);
    if (r.per_step && passes::IsJobMetric(r.metric) && !res.note.empty())
      res.note = "worst: " + res.note;
    out.push_back(std::move(res));
  }
  return out;
}

}  // namespace profana::job
