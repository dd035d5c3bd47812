#include "profana/passes/budget.h"

#include <algorithm>

#include "fmt/format.h"
#include "profana/passes/gpu_streams.h"
#include "profana/passes/key_averages.h"
#include "profana/passes/memory_timeline.h"
#include "simdjson.h"

namespace profana::passes {
namespace {

struct MetricInfo {
  BudgetMetric metric;
  const char* name;
  const char* unit;
  bool needs_op;
  bool per_step_ok;
  bool device_ok;
};

constexpr MetricInfo kMetrics[] = {
    {BudgetMetric::kSelfCpuTime, "self_cpu_time", "us", false, true, false},
    {BudgetMetric::kSelfDeviceTime, "self_device_time", "us", false, true, false},
    {BudgetMetric::kStepTime, "step_time", "us", false, false, false},
    {BudgetMetric::kGpuIdleShare, "gpu_idle_share", "share", false, false, true},
    {BudgetMetric::kPeakMemory, "peak_memory", "bytes", false, false, true},
    {BudgetMetric::kOpCount, "op_count", "count", true, true, false},
    {BudgetMetric::kOpSelfCpuTime, "op_self_cpu_time", "us", true, true, false},
    {BudgetMetric::kOpCpuTotalTime, "op_cpu_total_time", "us", true, true, false},
    {BudgetMetric::kOpSelfDeviceTime, "op_self_device_time", "us", true, true, false},
    {BudgetMetric::kOpDeviceTotalTime, "op_device_total_time", "us", true, true, false},
};

const MetricInfo& Info(BudgetMetric m) {
  for (const MetricInfo& i : kMetrics)
    if (i.metric == m) return i;
  return kMetrics[0];
}

std::string MetricNames() {
  std::string s;
  for (const MetricInfo& i : kMetrics) s += fmt::format("{}{}", s.empty() ? "" : ", ", i.name);
  return s;
}

Status Bad(const std::string& file, size_t index, const std::string& what) {
  return Status(ErrorCode::kInvalidArgument, fmt::format("{}: rules[{}]: {}", file, index, what));
}

Result<BudgetRule> ParseRule(simdjson::dom::element e, size_t index, const std::string& file) {
  simdjson::dom::object obj;
  if (e.get_object().get(obj)) return Bad(file, index, "a rule is a JSON object");
  BudgetRule r;
  r.index = index;
  bool have_metric = false;
  for (auto field : obj) {
    std::string_view key = field.key;
    simdjson::dom::element v = field.value;
    std::string_view text;
    double number = 0;
    bool flag = false;
    if (key == "metric") {
      if (v.get_string().get(text)) return Bad(file, index, "\"metric\" must be a string");
      auto it = std::find_if(std::begin(kMetrics), std::end(kMetrics),
                             [&](const MetricInfo& i) { return text == i.name; });
      if (it == std::end(kMetrics))
        return Bad(file, index,
                   fmt::format("unknown metric \"{}\" (expected one of: {})", text, MetricNames()));
      r.metric = it->metric;
      have_metric = true;
    } else if (key == "name" || key == "op") {
      if (v.get_string().get(text))
        return Bad(file, index, fmt::format("\"{}\" must be a string", key));
      (key == "name" ? r.name : r.op) = std::string(text);
    } else if (key == "device") {
      if (!v.get_string().get(text))
        r.device = std::string(text);
      else if (!v.get_double().get(number))
        r.device = fmt::format("{}", static_cast<int64_t>(number));
      else
        return Bad(file, index, "\"device\" must be a string or a number");
    } else if (key == "per_step") {
      if (v.get_bool().get(flag)) return Bad(file, index, "\"per_step\" must be true or false");
      r.per_step = flag;
    } else if (key == "max" || key == "min") {
      if (v.get_double().get(number))
        return Bad(file, index, fmt::format("\"{}\" must be a number", key));
      (key == "max" ? r.max : r.min) = number;
    } else {
      return Bad(
          file, index,
          fmt::format("unknown key \"{}\" (expected: metric, name, op, device, per_step, max, min)",
                      key));
    }
  }
  if (!have_metric) return Bad(file, index, "missing \"metric\"");
  const MetricInfo& info = Info(r.metric);
  if (info.needs_op && r.op.empty())
    return Bad(file, index, fmt::format("metric {} needs \"op\"", info.name));
  if (!info.needs_op && !r.op.empty())
    return Bad(file, index, fmt::format("metric {} takes no \"op\"", info.name));
  if (r.per_step && !info.per_step_ok)
    return Bad(file, index, fmt::format("metric {} cannot be per_step", info.name));
  if (!r.device.empty() && !info.device_ok)
    return Bad(file, index, fmt::format("metric {} takes no \"device\"", info.name));
  if (!r.max && !r.min) return Bad(file, index, "needs a limit: \"max\" or \"min\"");
  if (r.name.empty()) {
    r.name = info.name;
    if (!r.op.empty()) r.name += " " + r.op;
    if (!r.device.empty()) r.name += " " + r.device;
    if (r.per_step) r.name += " per step";
  }
  return r;
}

// The summed key_averages values of every row named `op`.
struct OpSums {
  int64_t count = 0, self_cpu = 0, cpu_total = 0, self_device = 0, device_total = 0;
};

OpSums SumOp(const Trace& t, const std::vector<AverageRow>& rows, const std::string& op) {
  OpSums s;
  for (const AverageRow& r : rows) {
    if (t.str(r.key) != op) continue;
    s.count += r.count;
    s.self_cpu += r.self_cpu_ns;
    s.cpu_total += r.cpu_total_ns;
    s.self_device += r.self_cuda_ns;
    s.device_total += r.cuda_total_ns;
  }
  return s;
}

Result<double> GpuIdleShare(const Trace& t, const FunctionEventList& e, const LaunchIndex& launches,
                            const BudgetRule& r) {
  IdleBreakdown b = ComputeIdleBreakdown(t, e, launches, 30, 0);
  std::optional<double> share;
  for (const IdleTrack& tr : b.tracks) {
    if (!tr.whole_device || tr.window_ns <= 0) continue;
    if (!r.device.empty() && r.device != std::to_string(tr.device)) continue;
    double s = static_cast<double>(tr.idle_ns()) / tr.window_ns;
    share = std::max(share.value_or(0.0), s);
  }
  if (!share)
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("rules[{}] ({}): the trace has no device activity{}", r.index, r.name,
                              r.device.empty() ? "" : " on device " + r.device));
  return *share;
}

Result<double> PeakMemory(const Trace& t, const FunctionEventList& e, const BudgetRule& r) {
  MemoryTimeline m = BuildMemoryTimeline(t, e);
  std::optional<int64_t> peak;
  for (size_t d = 0; d < m.devices.size(); ++d) {
    if (!r.device.empty() && static_cast<int>(d) != FindMemoryDevice(m, r.device)) continue;
    peak = std::max(peak.value_or(0), m.summary[d].peak_bytes);
  }
  if (!peak)
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format(
            "rules[{}] ({}): the trace has no memory records{} (profile_memory=True records them)",
            r.index, r.name, r.device.empty() ? "" : " for " + r.device));
  return static_cast<double>(*peak);
}

bool Holds(const BudgetRule& r, double v) {
  return (!r.max || v <= *r.max) && (!r.min || v >= *r.min);
}

}  // namespace

const char* BudgetMetricName(BudgetMetric m) { return Info(m).name; }
const char* BudgetMetricUnit(BudgetMetric m) { return Info(m).unit; }

Result<Budget> ParseBudget(std::string_view text, const std::string& file) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(text);
  simdjson::dom::element root;
  if (auto error = parser.parse(padded).get(root))
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: not a valid budget: {}", file, simdjson::error_message(error)));
  simdjson::dom::object obj;
  if (root.get_object().get(obj))
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: a budget is a JSON object with \"rules\"", file));
  Budget b;
  bool have_rules = false;
  for (auto field : obj) {
    std::string_view key = field.key;
    if (key == "description") continue;
    if (key != "rules")
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{}: unknown top-level key \"{}\" (expected: rules, description)",
                                file, key));
    simdjson::dom::array rules;
    if (field.value.get_array().get(rules))
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{}: \"rules\" must be an array", file));
    have_rules = true;
    size_t index = 0;
    for (simdjson::dom::element e : rules) {
      PROFANA_ASSIGN_OR_RETURN(BudgetRule r, ParseRule(e, index++, file));
      b.rules.push_back(std::move(r));
    }
  }
  if (!have_rules || b.rules.empty())
    return Status(ErrorCode::kInvalidArgument, fmt::format("{}: the budget has no rules", file));
  return b;
}

Result<std::vector<RuleResult>> EvaluateBudget(const Trace& t, const FunctionEventList& e,
                                               const Budget& budget) {
  std::vector<AverageRow> rows = ComputeKeyAverages(t, e, {});
  StepStats steps = CountSteps(t);
  std::optional<LaunchIndex> launches;  // built for the first rule that needs it
  std::vector<RuleResult> out;
  for (const BudgetRule& r : budget.rules) {
    if (r.per_step && steps.steps == 0)
      return Status(
          ErrorCode::kInvalidArgument,
          fmt::format("rules[{}] ({}): per_step needs ProfilerStep#N markers; the trace has none",
                      r.index, r.name));
    RuleResult res;
    res.rule = r;
    double v = 0;
    OpSums op;
    if (!r.op.empty()) {
      op = SumOp(t, rows, r.op);
      if (op.count == 0) res.note = "op not in the trace";
    }
    switch (r.metric) {
      case BudgetMetric::kSelfCpuTime:
      case BudgetMetric::kSelfDeviceTime: {
        int64_t ns = 0;
        for (const AverageRow& a : rows) {
          if (r.metric == BudgetMetric::kSelfCpuTime)
            ns += a.self_cpu_ns;
          else if (a.device_type == DeviceType::kCUDA || a.legacy)
            ns += a.self_cuda_ns;
        }
        v = ns / 1000.0;
        break;
      }
      case BudgetMetric::kStepTime:
        if (steps.steps == 0)
          return Status(ErrorCode::kInvalidArgument,
                        fmt::format("rules[{}] ({}): the trace has no ProfilerStep#N markers",
                                    r.index, r.name));
        v = steps.mean_ns / 1000.0;
        break;
      case BudgetMetric::kGpuIdleShare: {
        if (!launches) launches.emplace(t.events);
        PROFANA_ASSIGN_OR_RETURN(v, GpuIdleShare(t, e, *launches, r));
        break;
      }
      case BudgetMetric::kPeakMemory: {
        PROFANA_ASSIGN_OR_RETURN(v, PeakMemory(t, e, r));
        break;
      }
      case BudgetMetric::kOpCount:
        v = static_cast<double>(op.count);
        break;
      case BudgetMetric::kOpSelfCpuTime:
        v = op.self_cpu / 1000.0;
        break;
      case BudgetMetric::kOpCpuTotalTime:
        v = op.cpu_total / 1000.0;
        break;
      case BudgetMetric::kOpSelfDeviceTime:
        v = op.self_device / 1000.0;
        break;
      case BudgetMetric::kOpDeviceTotalTime:
        v = op.device_total / 1000.0;
        break;
    }
    if (r.per_step) v /= static_cast<double>(steps.steps);
    res.value = v;
    res.passed = Holds(r, v);
    out.push_back(std::move(res));
  }
  return out;
}

std::vector<RuleResult> BaselineRules(const TraceDiff& d, double max_regression) {
  std::vector<RuleResult> out;
  auto add = [&](BudgetMetric m, const char* what, double base, double next) {
    RuleResult res;
    res.rule.index = out.size();
    res.rule.metric = m;
    // A mean step time is per step already; totals are per step when the diff normalised them.
    res.rule.per_step = d.per_step && m != BudgetMetric::kStepTime;
    res.rule.name = fmt::format("{}{} vs baseline", what, res.rule.per_step ? " per step" : "");
    res.rule.max = base * (1 + max_regression);
    res.value = next;
    res.passed = next <= *res.rule.max;
    out.push_back(std::move(res));
  };
  add(BudgetMetric::kSelfCpuTime, "self_cpu_time", d.base.self_cpu_us, d.next.self_cpu_us);
  if (d.base.self_device_us > 0 || d.next.self_device_us > 0)
    add(BudgetMetric::kSelfDeviceTime, "self_device_time", d.base.self_device_us,
        d.next.self_device_us);
  if (d.base.steps > 0 && d.next.steps > 0)
    add(BudgetMetric::kStepTime, "step_time", d.base.step_time_us, d.next.step_time_us);
  return out;
}

}  // namespace profana::passes
