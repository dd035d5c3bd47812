// Step statistics across the steps and ranks of a job: for each breakdown metric, its mean,
// median, 95th percentile, minimum and maximum over the (rank, step, device) rows, and the
// slowest step. Quantiles interpolate linearly between closest ranks (numpy's default).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/job/rank_summary.h"

namespace profana::job {

struct Describe {
  int64_t count = 0;
  double mean = 0, median = 0, p95 = 0, min = 0, max = 0;
};
Describe DescribeValues(std::vector<double> values);

enum class StepMetric : uint8_t {
  kWall,
  kCompute,
  kCommExposed,
  kMemoryExposed,
  kIdle,
  kCommHiddenShare,  // percent of communication time during computation; rows without
                     // communication are left out of its statistics
  kHostUntraced,
  kHostDataloader,
  kHostOptimizer,
  kHostSync,
  kSmEfficiency,     // percent: the TensorBoard plugin's Est. SM Efficiency of the step window
  kOccupancy,        // percent: Est. Achieved Occupancy, weighted by kernel time
  kTensorCoreShare,  // percent of kernel time on Tensor Cores
  kMfu,              // percent: model FLOPs utilization, the FLOPs' time at peak over the wall
};
constexpr size_t kStepMetrics = 14;
const char* StepMetricName(StepMetric m);  // "wall", "compute", "comm_exposed", ...
// Whether the metric is a percent (a share or the occupancy) rather than nanoseconds.
bool IsPercentMetric(StepMetric m);
// All memcpys of a step device (memsets not included): bytes, and the time they took.
int64_t CopiedBytes(const StepDevice& d);
int64_t CopyTimeNs(const StepDevice& d);
// A row's value of the metric: nanoseconds, or a percent for the shares; false when undefined
// (no communication, no kernel with blocks per SM, occupancy or time).
bool StepMetricValue(const RankStep& s, const StepDevice& d, StepMetric m, double* value);

struct StepsOverview {
  int64_t ranks = 0;
  int64_t steps = 0;  // distinct step numbers
  int64_t rows = 0;   // (rank, step, device) rows
  Describe metrics[kStepMetrics];
  // The step with the longest wall time (ties: the lower rank, then the lower step).
  int64_t slowest_rank = -1, slowest_step = -1, slowest_wall_ns = 0;
  // Per rank: the mean wall time of its steps, and the rank with the highest one.
  int64_t slowest_mean_rank = -1;
  double slowest_mean_wall_ns = 0;
};

StepsOverview OverviewOfSteps(const std::vector<RankStep>& steps);

// Achieved FLOP/s of a row: its FLOPs over its wall time; false without FLOPs.
bool AchievedFlops(const RankStep& s, const StepDevice& d, double* flops_per_second);
// `--peak-tflops`: one peak for every type and device, for every FLOP of the steps (the table's
// peaks and what they leave out are replaced).
void UsePeakForAllFlops(double tflops, std::vector<RankStep>* steps);
// The devices of the job that did FLOPs no peak covers because the peak table does not know them
// (names as the traces' headers give them), for the note that asks for --peak-tflops.
std::vector<std::string> DevicesWithoutPeak(const RankSummary& job);

}  // namespace profana::job
