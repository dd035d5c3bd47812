#include "profana/passes/budget.h"

#include <algorithm>
#include <cmath>

#include "fmt/format.h"
#include "profana/base/int_sum.h"
#include "profana/base/json_brackets.h"
#include "profana/base/json_reader.h"
#include "profana/passes/gpu_streams.h"
#include "profana/passes/key_averages.h"
#include "profana/passes/memory_timeline.h"
#include "profana/passes/trace_filter.h"
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
    {BudgetMetric::kMaxStepTime, "max_step_time", "us", false, true, false},
    {BudgetMetric::kRankSkew, "rank_skew", "us", false, true, false},
    {BudgetMetric::kCommExposedShare, "comm_exposed_share", "share", false, true, true},
    {BudgetMetric::kIdleShare, "idle_share", "share", false, true, true},
    {BudgetMetric::kKernelShare, "kernel_share", "share", true, false, false},
    {BudgetMetric::kSmEfficiency, "sm_efficiency", "share", false, true, true},
    {BudgetMetric::kTensorCoreShare, "tensor_core_share", "share", false, true, true},
    {BudgetMetric::kMfu, "mfu", "share", false, true, true},
    {BudgetMetric::kAdviceSaving, "advise.<rule>.saving_ms", "ms", false, false, false},
    {BudgetMetric::kAdviceCount, "advise.<rule>.count", "count", false, false, false},
};

// "advise.host-sync.saving_ms" -> kAdviceSaving and "host-sync"; false for other names.
bool ParseAdviceMetric(std::string_view text, BudgetMetric* m, std::string* rule) {
  constexpr std::string_view kPrefix = "advise.", kSaving = ".saving_ms", kCount = ".count";
  if (text.substr(0, kPrefix.size()) != kPrefix) return false;
  std::string_view rest = text.substr(kPrefix.size());
  for (auto [suffix, metric] : {std::pair{kSaving, BudgetMetric::kAdviceSaving},
                                std::pair{kCount, BudgetMetric::kAdviceCount}}) {
    if (rest.size() > suffix.size() && rest.substr(rest.size() - suffix.size()) == suffix) {
      *m = metric;
      *rule = std::string(rest.substr(0, rest.size() - suffix.size()));
      return true;
    }
  }
  return false;
}

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

namespace od = simdjson::ondemand;

// Reads a budget with simdjson's On-Demand API, which knows where each value is: every error
// says "byte N (line L, column C)", as errors in traces do.
class BudgetReader {
 public:
  // `text` is without the byte order mark, `bom` its length: places count it.
  BudgetReader(std::string_view text, const std::string& file, size_t bom)
      : json_(text, bom), file_(file) {}

  // `at` points into the text, or is null when the place is unknown.
  Status Bad(const char* at, const std::string& what) {
    json_.FailAt(at, what);
    return Status(ErrorCode::kInvalidArgument, fmt::format("{}: {}", file_, json_.fault()));
  }
  Status Bad(size_t index, const char* at, const std::string& what) {
    return Bad(at, fmt::format("rules[{}]: {}", index, what));
  }
  // A JSON error met while reading: where the parser stopped.
  Status Syntax(od::document& doc, simdjson::error_code err) {
    return Bad(JsonReader::Where(doc),
               fmt::format("not a valid budget: {}", simdjson::error_message(err)));
  }

  Result<BudgetRule> Rule(od::document& doc, od::value e, size_t index);

 private:
  JsonReader json_;
  std::string file_;
};

Result<BudgetRule> BudgetReader::Rule(od::document& doc, od::value e, size_t index) {
  const char* rule_at = JsonReader::Where(e);
  // On-Demand reads "[{...},]" as an element ']': JSON allows no comma before the bracket.
  if (rule_at && *rule_at == ']') return Bad(rule_at, "not a valid budget: a comma before ']'");
  od::object obj;
  if (auto err = e.get_object().get(obj))
    return err == simdjson::INCORRECT_TYPE ? Bad(index, rule_at, "a rule is a JSON object")
                                           : Syntax(doc, err);
  BudgetRule r;
  r.index = index;
  bool have_metric = false;
  for (auto field_result : obj) {
    od::field field;
    if (auto err = std::move(field_result).get(field)) return Syntax(doc, err);
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return Syntax(doc, err);
    std::string key_copy(key);  // the key's buffer is reused by the next string read
    od::value v = field.value();
    const char* at = JsonReader::Where(v);
    od::json_type type;
    if (auto err = v.type().get(type)) return Syntax(doc, err);
    std::string_view text;
    double number = 0;
    bool flag = false;
    if (key_copy == "metric") {
      if (type != od::json_type::string || v.get_string().get(text))
        return Bad(index, at, "\"metric\" must be a string");
      auto it = std::find_if(std::begin(kMetrics), std::end(kMetrics),
                             [&](const MetricInfo& i) { return text == i.name; });
      if (ParseAdviceMetric(text, &r.metric, &r.advice)) {
        have_metric = true;
        continue;
      }
      if (it == std::end(kMetrics))
        return Bad(index, at,
                   fmt::format("unknown metric \"{}\" (expected one of: {})", text, MetricNames()));
      r.metric = it->metric;
      have_metric = true;
    } else if (key_copy == "name" || key_copy == "op") {
      if (type != od::json_type::string || v.get_string().get(text))
        return Bad(index, at, fmt::format("\"{}\" must be a string", key_copy));
      (key_copy == "name" ? r.name : r.op) = std::string(text);
    } else if (key_copy == "device") {
      if (type == od::json_type::string && !v.get_string().get(text))
        r.device = std::string(text);
      else if (type == od::json_type::number && !v.get_double().get(number))
        r.device = fmt::format("{}", static_cast<int64_t>(number));
      else
        return Bad(index, at, "\"device\" must be a string or a number");
    } else if (key_copy == "per_step") {
      if (type != od::json_type::boolean || v.get_bool().get(flag))
        return Bad(index, at, "\"per_step\" must be true or false");
      r.per_step = flag;
    } else if (key_copy == "max" || key_copy == "min") {
      if (type != od::json_type::number)
        return Bad(index, at, fmt::format("\"{}\" must be a number", key_copy));
      if (v.get_double().get(number) || !std::isfinite(number))
        return Bad(index, at,
                   fmt::format("\"{}\" is a number out of range (a limit is at most about "
                               "1.8e308)",
                               key_copy));
      (key_copy == "max" ? r.max : r.min) = number;
    } else if (key_copy == "peak_tflops") {
      if (type != od::json_type::number || v.get_double().get(number) || !std::isfinite(number) ||
          number <= 0)
        return Bad(index, at, "\"peak_tflops\" must be a number above 0");
      r.peak_tflops = number;
    } else {
      return Bad(
          index, at,
          fmt::format("unknown key \"{}\" (expected: metric, name, op, device, per_step, max, min, "
                      "peak_tflops)",
                      key_copy));
    }
  }
  if (!have_metric) return Bad(index, rule_at, "missing \"metric\"");
  const MetricInfo& info = Info(r.metric);
  if (info.needs_op && r.op.empty())
    return Bad(index, rule_at, fmt::format("metric {} needs \"op\"", info.name));
  if (!info.needs_op && !r.op.empty())
    return Bad(index, rule_at, fmt::format("metric {} takes no \"op\"", info.name));
  if (r.per_step && !info.per_step_ok)
    return Bad(index, rule_at, fmt::format("metric {} cannot be per_step", info.name));
  if (!r.device.empty() && !info.device_ok)
    return Bad(index, rule_at, fmt::format("metric {} takes no \"device\"", info.name));
  if (r.peak_tflops && r.metric != BudgetMetric::kMfu)
    return Bad(index, rule_at, fmt::format("metric {} takes no \"peak_tflops\"", info.name));
  if (!r.max && !r.min) return Bad(index, rule_at, "needs a limit: \"max\" or \"min\"");
  if (r.name.empty() && IsAdviceMetric(r.metric)) {
    r.name = fmt::format("advise.{}.{}", r.advice,
                         r.metric == BudgetMetric::kAdviceSaving ? "saving_ms" : "count");
  } else if (r.name.empty()) {
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

OpSums SumOp(const std::vector<AverageRow>& rows,
             const std::function<std::string_view(StringId)>& name, const std::string& op) {
  OpSums s;
  for (const AverageRow& r : rows) {
    if (name(r.key) != op) continue;
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
  IdleBreakdown b = ComputeIdleBreakdown(t, e, launches, kHtaConsecutiveKernelDelayNs, 0);
  std::optional<double> share;
  int32_t device = -1;  // "0" or "cuda:0"; a name that is neither matches no device
  if (!r.device.empty()) {
    Result<int32_t> index = ParseDeviceIndex(r.device);
    device = index.ok() ? *index : -2;
  }
  for (const IdleTrack& tr : b.tracks) {
    if (!tr.whole_device || tr.window_ns <= 0) continue;
    if (!r.device.empty() && device != tr.device) continue;
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

}  // namespace

bool RuleHolds(const BudgetRule& r, double v) {
  return (!r.max || v <= *r.max) && (!r.min || v >= *r.min);
}

bool IsJobMetric(BudgetMetric m) {
  return m == BudgetMetric::kMaxStepTime || m == BudgetMetric::kRankSkew ||
         m == BudgetMetric::kCommExposedShare || m == BudgetMetric::kIdleShare ||
         m == BudgetMetric::kKernelShare || m == BudgetMetric::kSmEfficiency ||
         m == BudgetMetric::kTensorCoreShare || m == BudgetMetric::kMfu;
}

bool IsAdviceMetric(BudgetMetric m) {
  return m == BudgetMetric::kAdviceSaving || m == BudgetMetric::kAdviceCount;
}

bool NeedsSingleTrace(BudgetMetric m) {
  return m == BudgetMetric::kGpuIdleShare || m == BudgetMetric::kPeakMemory;
}

const char* BudgetMetricName(BudgetMetric m) { return Info(m).name; }
const char* BudgetMetricUnit(BudgetMetric m) { return Info(m).unit; }

bool CouldStartBudget(std::string_view first_bytes) {
  if (first_bytes.substr(0, 3) == "\xEF\xBB\xBF") first_bytes.remove_prefix(3);
  size_t at = first_bytes.find_first_not_of(" \t\r\n");
  return at == std::string_view::npos || first_bytes[at] == '{';
}

Result<Budget> ParseBudget(std::string_view text, const std::string& file) {
  // A byte order mark is skipped, as in traces.
  size_t bom = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  text.remove_prefix(bom);
  simdjson::padded_string padded(text);
  BudgetReader reader(std::string_view(padded.data(), padded.size()), file, bom);
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{')
    return reader.Bad(padded.data() + (first == std::string_view::npos ? text.size() : first),
                      "a budget is a JSON object with \"rules\"");
  // Only the object is parsed: what follows it is an error of its own, at its place.
  size_t end = EndOfJsonValue(text, first);
  if (end != std::string_view::npos) {
    size_t after = text.find_first_not_of(" \t\r\n", end);
    if (after != std::string_view::npos)
      return reader.Bad(padded.data() + after, "not a valid budget: bytes follow the JSON object");
    padded = simdjson::padded_string(text.substr(0, end));
    reader = BudgetReader(std::string_view(padded.data(), padded.size()), file, bom);
  }
  od::parser parser;
  od::document doc;
  if (auto err = parser.iterate(padded).get(doc))
    return reader.Bad(nullptr, fmt::format("not a valid budget: {}", simdjson::error_message(err)));
  auto syntax = [&](simdjson::error_code err) { return reader.Syntax(doc, err); };
  od::object obj;
  if (auto err = doc.get_object().get(obj)) return syntax(err);
  Budget b;
  bool have_rules = false;
  for (auto field_result : obj) {
    od::field field;
    if (auto err = std::move(field_result).get(field)) return syntax(err);
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return syntax(err);
    od::value value = field.value();
    const char* at = JsonReader::Where(value);
    if (key == "description") continue;
    if (key != "rules")
      return reader.Bad(
          at, fmt::format("unknown top-level key \"{}\" (expected: rules, description)", key));
    od::array rules;
    if (value.get_array().get(rules)) return reader.Bad(at, "\"rules\" must be an array");
    have_rules = true;
    size_t index = 0;
    for (auto element : rules) {
      od::value e;
      if (auto err = element.get(e)) return syntax(err);
      Result<BudgetRule> r = reader.Rule(doc, e, index++);
      if (!r.ok()) return r.status();
      b.rules.push_back(std::move(*r));
    }
  }
  if (!have_rules || b.rules.empty())
    return Status(ErrorCode::kInvalidArgument, fmt::format("{}: the budget has no rules", file));
  return b;
}

double MeasureKeyAverages(const BudgetRule& r, const std::vector<AverageRow>& rows,
                          const std::function<std::string_view(StringId)>& name, bool* op_missing) {
  OpSums op;
  if (!r.op.empty()) {
    op = SumOp(rows, name, r.op);
    *op_missing = op.count == 0;
  }
  switch (r.metric) {
    case BudgetMetric::kSelfCpuTime:
    case BudgetMetric::kSelfDeviceTime: {
      // The table footer's totals (GPU annotations left out), wrapping as the rows' sums do.
      int64_t ns = 0;
      for (const AverageRow& a : rows) {
        if (r.metric == BudgetMetric::kSelfCpuTime)
          ns = WrapAdd(ns, a.self_cpu_ns);
        else if (a.CountsInCudaTotal())
          ns = WrapAdd(ns, a.self_cuda_ns);
      }
      return ns / 1000.0;
    }
    case BudgetMetric::kOpCount:
      return static_cast<double>(op.count);
    case BudgetMetric::kOpSelfCpuTime:
      return op.self_cpu / 1000.0;
    case BudgetMetric::kOpCpuTotalTime:
      return op.cpu_total / 1000.0;
    case BudgetMetric::kOpSelfDeviceTime:
      return op.self_device / 1000.0;
    case BudgetMetric::kOpDeviceTotalTime:
      return op.device_total / 1000.0;
    default:
      return 0;
  }
}

Result<std::vector<RuleResult>> EvaluateBudget(const Trace& t, const FunctionEventList& e,
                                               const Budget& budget) {
  std::vector<AverageRow> rows = ComputeKeyAverages(t, e, {});
  StepStats steps = CountSteps(t);
  std::optional<LaunchIndex> launches;  // built for the first rule that needs it
  auto name = [&t](StringId id) { return t.str(id); };
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
    switch (r.metric) {
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
      case BudgetMetric::kSelfCpuTime:
      case BudgetMetric::kSelfDeviceTime:
      case BudgetMetric::kOpCount:
      case BudgetMetric::kOpSelfCpuTime:
      case BudgetMetric::kOpCpuTotalTime:
      case BudgetMetric::kOpSelfDeviceTime:
      case BudgetMetric::kOpDeviceTotalTime: {
        bool op_missing = false;
        v = MeasureKeyAverages(r, rows, name, &op_missing);
        if (op_missing) res.note = "op not in the trace";
        break;
      }
      case BudgetMetric::kMaxStepTime:
      case BudgetMetric::kRankSkew:
      case BudgetMetric::kCommExposedShare:
      case BudgetMetric::kIdleShare:
      case BudgetMetric::kKernelShare:
      case BudgetMetric::kSmEfficiency:
      case BudgetMetric::kTensorCoreShare:
      case BudgetMetric::kMfu:
        return Status(ErrorCode::kInvalidArgument,
                      fmt::format("rules[{}] ({}): {} is measured on a job", r.index, r.name,
                                  BudgetMetricName(r.metric)));
      case BudgetMetric::kAdviceSaving:
      case BudgetMetric::kAdviceCount:
        return Status(ErrorCode::kInternal,
                      fmt::format("rules[{}] ({}): measured by profana advise", r.index, r.name));
    }
    if (r.per_step) v /= static_cast<double>(steps.steps);
    res.value = v;
    res.passed = RuleHolds(r, v);
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
