// Budgets for `profana check`: a JSON file of rules (docs/budget.md), each a metric of one trace
// with a limit, and the rules a baseline trace implies (--baseline BASE --max-regression P%).
// Parsing is a pure function of the file's text; evaluation a pure function of the trace.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/status.h"
#include "profana/passes/function_events.h"
#include "profana/passes/key_averages.h"
#include "profana/passes/trace_diff.h"

namespace profana::passes {

enum class BudgetMetric {
  kSelfCpuTime,        // us: self CPU time of every host op
  kSelfDeviceTime,     // us: time of every device activity (kernels, memcpy, memset)
  kStepTime,           // us: mean ProfilerStep#N duration
  kGpuIdleShare,       // 0..1: idle time / window of the device (the largest over devices)
  kPeakMemory,         // bytes: peak of the replayed memory timeline (the largest over devices)
  kOpCount,            // calls of the op named "op"
  kOpSelfCpuTime,      // us
  kOpCpuTotalTime,     // us
  kOpSelfDeviceTime,   // us
  kOpDeviceTotalTime,  // us
  // Measured on a job (job/job_budget.h); a single trace is a job of one rank.
  kMaxStepTime,       // us: the slowest rank's mean step wall time; per_step: the longest step
  kRankSkew,          // us: max - min of the ranks' mean step wall; per_step: of one step's walls
  kCommExposedShare,  // 0..1: exposed communication / step wall; per_step: the worst step
  kIdleShare,         // 0..1: device idle / step wall; per_step: the worst step
  kKernelShare,       // 0..1: the kernel named "op" / all device activity time
  kSmEfficiency,      // 0..1: the TensorBoard plugin's Est. SM Efficiency over the steps
  kTensorCoreShare,   // 0..1: kernel time on Tensor Cores / all kernel time in the steps
  kMfu,               // 0..1: model FLOPs utilization of the steps (job/step_statistics.h)
  // Measured by `profana advise` (job/advice/advice.h) on a trace or a job; "advice" names the
  // rule: "advise.<rule>.saving_ms" and "advise.<rule>.count" in a budget file.
  kAdviceSaving,  // ms: the rule's estimated saving (0 when it did not fire)
  kAdviceCount,   // count: the rule's occurrences (0 when it did not fire)
};

const char* BudgetMetricName(BudgetMetric m);
const char* BudgetMetricUnit(BudgetMetric m);  // "us", "bytes", "share", "count"
// True for the metrics measured on a job's step breakdown and kernel statistics.
bool IsJobMetric(BudgetMetric m);
// True when a rule needs the trace itself, which a job does not keep: gpu_idle_share,
// peak_memory.
bool NeedsSingleTrace(BudgetMetric m);
// True for the metrics `profana advise` measures.
bool IsAdviceMetric(BudgetMetric m);

struct BudgetRule {
  size_t index = 0;  // position in the file's "rules"
  std::string name;  // "name" of the rule, or a generated label
  BudgetMetric metric = BudgetMetric::kSelfCpuTime;
  std::string op;         // for op_* metrics: the key_averages name (ProfilerStep*)
  std::string device;     // "cuda:0" or "0"; peak_memory also "cpu"; empty = all
  std::string advice;     // for advise metrics: the rule id ("host-sync")
  bool per_step = false;  // divide by the number of ProfilerStep#N markers
  std::optional<double> max;
  std::optional<double> min;
  // mfu: one peak in TFLOP/s for every FLOP, instead of the peak table's (steps --peak-tflops).
  std::optional<double> peak_tflops;
};

struct Budget {
  std::vector<BudgetRule> rules;
};

// Errors name the file, the rule index and the key: "b.json: rules[2]: unknown key "maxx"".
// A budget must start with '{' (after a byte order mark and spaces): an input that cannot
// (`--budget /dev/zero`) stops being read after its first bytes.
bool CouldStartBudget(std::string_view first_bytes);

Result<Budget> ParseBudget(std::string_view text, const std::string& file_name);

struct RuleResult {
  BudgetRule rule;
  double value = 0;
  bool passed = true;
  std::string note;  // e.g. "op not in the trace"
};

// Errors (kInvalidArgument) when a rule cannot be measured on this trace: per_step without
// ProfilerStep markers, gpu_idle_share without device activity, peak_memory without memory
// records, a device that is not in the trace, a job metric (measured by job::EvaluateJobBudget).
Result<std::vector<RuleResult>> EvaluateBudget(const Trace& trace, const FunctionEventList& events,
                                               const Budget& budget);

// The value of a rule measured on key-average rows (self_cpu_time, self_device_time, op_*),
// before any per_step division; `name` gives a row key's text. `op_missing`: no row is `op`.
// Other metrics: 0.
double MeasureKeyAverages(const BudgetRule& rule, const std::vector<AverageRow>& rows,
                          const std::function<std::string_view(StringId)>& name, bool* op_missing);

// Whether the rule holds for the value: <= max and >= min.
bool RuleHolds(const BudgetRule& rule, double value);

// The rules of --baseline: NEW's self CPU time, self device time (when either trace has device
// activity) and mean step time (when both have steps) may exceed BASE's by max_regression
// (0.05 = 5%). Values are per step when the diff normalised per step.
std::vector<RuleResult> BaselineRules(const TraceDiff& diff, double max_regression);

}  // namespace profana::passes
