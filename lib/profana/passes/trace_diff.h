// DiffTraces: key_averages of two traces side by side, for `profana diff` and the baseline rules
// of `profana check`. Rows are matched across traces by their key as text (name, device type,
// and the input shapes or stack frames when grouped by them), since the traces intern strings
// separately. Rules (docs/semantics.md, "Diff"):
//  * Values are sums over the trace, in microseconds; when both traces have ProfilerStep#N markers
//    and differ in their number of steps, every value (counts included) is divided by the trace's
//    number of steps ("per step").
//  * A row's change is NEW - BASE of the sort metric; rows come sorted by the size of the change,
//    largest first, ties in first-occurrence order (BASE's, then NEW's): the ops first, then the
//    user annotations (record_function labels, ProfilerStep#N, on the CPU or the GPU), which are
//    ranges around ops, not ops (a GPU annotation's self device time is its whole span).
//  * Totals: self CPU time sums the host rows; self device time sums the device-activity rows
//    (and the CPU rows of legacy profiles), as the footer of PyTorch's table.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/status.h"
#include "profana/passes/function_events.h"
#include "profana/passes/key_averages.h"

namespace profana::passes {

struct DiffValues {
  double count = 0;
  double self_cpu_us = 0;
  double cpu_total_us = 0;
  double self_device_us = 0;
  double device_total_us = 0;
};

enum class DiffMetric { kSelf, kSelfCpu, kSelfDevice, kCpuTotal, kDeviceTotal, kCount };
// "self", "self_cpu", "self_device", "cpu_total", "device_total", "count", and table's keys for
// these columns (self_cuda_time_total, cuda_total, calls, ...), which DiffMetricNames leaves out.
Result<DiffMetric> ParseDiffMetric(std::string_view text);
std::vector<std::string> DiffMetricNames();
const char* DiffMetricName(DiffMetric metric);
// kSelf: self CPU + self device time.
double MetricValue(const DiffValues& v, DiffMetric metric);

struct DiffRow {
  std::string name;
  DeviceType device_type = DeviceType::kCPU;
  std::string input_shapes;        // when grouped by input shape
  std::vector<std::string> stack;  // when grouped by stack
  bool annotation = false;         // a user annotation (AverageRow::annotation), ranked apart
  bool in_base = false;
  bool in_new = false;
  DiffValues base;
  DiffValues next;
  double base_metric = 0;  // BASE's value of the sort metric
  double change = 0;       // NEW - BASE of the sort metric
  // change / BASE; 0 when BASE is 0 (an added row, or a row that was 0 in both).
  double relative() const { return base_metric != 0 ? change / base_metric : 0; }
};

struct DiffTotals {
  int64_t steps = 0;        // distinct ProfilerStep#N markers
  double step_time_us = 0;  // mean ProfilerStep duration; 0 without steps
  double self_cpu_us = 0;   // after per-step normalisation
  double self_device_us = 0;
  int64_t events = 0;  // function events
  int64_t ranks = 0;   // a job's ranks (steps then count (rank, step) pairs); 0 for one trace
};

struct DiffOptions {
  KeyAverageOptions keys;
  DiffMetric sort = DiffMetric::kSelf;
};

struct TraceDiff {
  std::vector<DiffRow> rows;
  DiffTotals base, next;
  bool per_step = false;
  bool grouped_by_input_shape = false;
  int grouped_by_stack = 0;
  DiffMetric sort = DiffMetric::kSelf;
  size_t added = 0;    // rows only in NEW
  size_t removed = 0;  // rows only in BASE
  size_t ops = 0;      // rows[0, ops) are ops, rows[ops, end) annotations
};

TraceDiff DiffTraces(const Trace& base, const FunctionEventList& base_events, const Trace& next,
                     const FunctionEventList& next_events, const DiffOptions& options);

// Distinct ProfilerStep#N markers and their mean duration (ns), for per-step rules. For a job,
// the (rank, step) pairs and their mean.
struct StepStats {
  int64_t steps = 0;
  int64_t mean_ns = 0;
};
StepStats CountSteps(const Trace& trace);

// One side of a diff where there is no trace to hand (a job of several ranks, a summary file):
// key-average rows made with the diff's keys, whose ids refer to `strings`, and its steps.
struct DiffSide {
  const StringPool* strings = nullptr;
  const std::vector<AverageRow>* rows = nullptr;
  StepStats steps;
  int64_t ranks = 0;
};
TraceDiff DiffRows(const DiffSide& base, const DiffSide& next, const DiffOptions& options);

}  // namespace profana::passes
