// profana check FILE: a CI gate. With --budget, every rule of the budget file; with --baseline,
// no regression beyond --max-regression; with neither, the trace's own consistency. Exit 0 when
// everything holds, 1 when a rule fails (each failure listed), 2 for bad input or a bad budget.
#include <cmath>

#include "fmt/format.h"
#include "profana/base/input_buffer.h"
#include "profana/base/memory_limit.h"
#include "profana/commands/commands.h"
#include "profana/passes/budget.h"
#include "profana/passes/function_events.h"
#include "profana/passes/trace_validation.h"
#include "profana/reporters/json_writer.h"
#include "profana/reporters/number_format.h"

namespace profana::app {
namespace {

struct CheckArgs {
  CommonOptions common;
  std::string file;
  std::string budget;
  std::string baseline;
  std::string max_regression = "5%";
};

Result<double> ParsePercent(const std::string& text) {
  std::string s = text;
  bool percent = !s.empty() && s.back() == '%';
  if (percent) s.pop_back();
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(v) || v < 0)
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format(
            "--max-regression \"{}\": expected a percentage like 5% (or a fraction like 0.05)",
            text));
  return percent ? v / 100 : v;
}

// A budget file is read as trace inputs are: --max-memory bounds it, and an input that cannot
// start a JSON object (`--budget /dev/zero`) stops being read after its first bytes.
Result<std::string> ReadBudgetText(const std::string& path, const CommonOptions& o) {
  InputLimits limits;
  if (!o.max_memory.empty() && !ParseByteSize(o.max_memory, &limits.max_bytes))
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("--max-memory {}: expected a size such as 512M, 16G or 0 (no limit)",
                              o.max_memory));
  limits.could_start = [](std::string_view first_bytes) {
    if (first_bytes.substr(0, 3) == "\xEF\xBB\xBF") first_bytes.remove_prefix(3);
    size_t at = first_bytes.find_first_not_of(" \t\r\n");
    return at == std::string_view::npos || first_bytes[at] == '{';
  };
  PROFANA_ASSIGN_OR_RETURN(InputBuffer input, ReadInput(path, limits));
  return std::string(input.view());
}

std::string Show(double v, passes::BudgetMetric m) {
  std::string unit = passes::BudgetMetricUnit(m);
  if (unit == "us") return report::FormatTime(v);
  if (unit == "bytes") return report::FormatMemory(static_cast<int64_t>(v));
  if (unit == "share") return fmt::format("{:.2f}%", 100 * v);
  return v == std::floor(v) ? fmt::format("{}", static_cast<int64_t>(v)) : fmt::format("{:.2f}", v);
}

std::string Limits(const passes::RuleResult& r) {
  std::string s;
  if (r.rule.min) s += ">= " + Show(*r.rule.min, r.rule.metric);
  if (r.rule.max) s += (s.empty() ? "<= " : ", <= ") + Show(*r.rule.max, r.rule.metric);
  return s;
}

std::string Text(const std::string& file, const std::string& mode,
                 const std::vector<passes::RuleResult>& results) {
  size_t failed = 0;
  for (const auto& r : results) failed += !r.passed;
  std::string out = fmt::format("{}: {} rule{} ({}), {} failed\n", file, results.size(),
                                results.size() == 1 ? "" : "s", mode, failed);
  for (const auto& r : results)
    out += fmt::format("  {}  {:<44}  {:>12}  {}{}\n", r.passed ? "ok  " : "FAIL", r.rule.name,
                       Show(r.value, r.rule.metric), Limits(r),
                       r.note.empty() ? "" : "  (" + r.note + ")");
  return out;
}

std::string Json(const std::string& file, const std::string& mode,
                 const std::vector<passes::RuleResult>& results) {
  std::string out;
  report::JsonWriter w(&out);
  size_t failed = 0;
  for (const auto& r : results) failed += !r.passed;
  w.BeginObject();
  w.Key("schema").String("profana.check/1");
  w.Key("input").String(file);
  w.Key("mode").String(mode);
  w.Key("passed").Bool(failed == 0);
  w.Key("failed").Int(static_cast<int64_t>(failed));
  w.Key("rules").BeginArray();
  for (const auto& r : results) {
    w.BeginObject();
    w.Key("index").Int(static_cast<int64_t>(r.rule.index));
    w.Key("name").String(r.rule.name);
    w.Key("metric").String(passes::BudgetMetricName(r.rule.metric));
    if (!r.rule.op.empty()) w.Key("op").String(r.rule.op);
    if (!r.rule.device.empty()) w.Key("device").String(r.rule.device);
    w.Key("per_step").Bool(r.rule.per_step);
    w.Key("unit").String(passes::BudgetMetricUnit(r.rule.metric));
    w.Key("value").Double(std::round(r.value * 1000) / 1000);
    w.Key("max");
    r.rule.max ? w.Double(std::round(*r.rule.max * 1000) / 1000) : w.Null();
    w.Key("min");
    r.rule.min ? w.Double(*r.rule.min) : w.Null();
    w.Key("passed").Bool(r.passed);
    if (!r.note.empty()) w.Key("note").String(r.note);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out;
}

std::string Shorten(std::string_view s) {
  return s.size() <= 60 ? std::string(s) : std::string(s.substr(0, 57)) + "...";
}

// Validation checks as rules with a limit of 0 (informational counts have none).
std::string ValidationText(const std::string& file,
                           const std::vector<passes::ValidationCheck>& checks, const Trace& t) {
  std::string out = fmt::format("{}: trace validation\n", file);
  for (const auto& c : checks) {
    bool ok = !c.fatal || c.count == 0;
    out += fmt::format("  {}  {:<28}  {:>8}  {}", ok ? (c.fatal ? "ok  " : "info") : "FAIL", c.name,
                       c.count, c.description);
    if (c.first_event >= 0)
      out += fmt::format("; first: \"{}\" at event #{}",
                         Shorten(t.str(t.events.trace_name[c.first_event])), c.first_event);
    out += "\n";
  }
  return out;
}

std::string ValidationJson(const std::string& file,
                           const std::vector<passes::ValidationCheck>& checks, size_t failed) {
  std::string out;
  report::JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.check/1");
  w.Key("input").String(file);
  w.Key("mode").String("validate");
  w.Key("passed").Bool(failed == 0);
  w.Key("failed").Int(static_cast<int64_t>(failed));
  w.Key("rules").BeginArray();
  for (size_t i = 0; i < checks.size(); ++i) {
    const auto& c = checks[i];
    w.BeginObject();
    w.Key("index").Int(static_cast<int64_t>(i));
    w.Key("name").String(c.name);
    w.Key("metric").String(c.name);
    w.Key("per_step").Bool(false);
    w.Key("unit").String("count");
    w.Key("value").Int(static_cast<int64_t>(c.count));
    w.Key("max");
    c.fatal ? w.Int(0) : w.Null();
    w.Key("min").Null();
    w.Key("passed").Bool(!c.fatal || c.count == 0);
    w.Key("note").String(c.description);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out;
}

int Report(const CheckArgs& a, const std::string& text, size_t failed, const std::string& failures,
           Context& ctx) {
  int rc = Emit(text, a.common, ctx);
  if (rc != kExitOk) return rc;
  if (failed == 0) return kExitOk;
  ctx.err->append(fmt::format("profana: check failed: {}: {}\n", a.file, failures));
  return kExitCheckFailed;
}

int RunCheck(const CheckArgs& a, Context& ctx) {
  if (!a.budget.empty() && !a.baseline.empty())
    return Fail(Status(ErrorCode::kInvalidArgument, "--budget and --baseline: one check at a time"),
                ctx);
  double max_regression = 0;
  if (!a.baseline.empty()) {
    auto p = ParsePercent(a.max_regression);
    if (!p.ok()) return Fail(p.status(), ctx);
    max_regression = *p;
  }
  passes::Budget budget;
  if (!a.budget.empty()) {
    auto text = ReadBudgetText(a.budget, a.common);
    if (!text.ok()) return Fail(text.status(), ctx);
    auto parsed = passes::ParseBudget(*text, a.budget);
    if (!parsed.ok()) return Fail(parsed.status(), ctx);
    budget = std::move(*parsed);
  }
  auto trace = LoadForCommand(a.file, a.common, ctx);
  if (!trace.ok()) return Fail(trace.status(), ctx);
  bool json = a.common.format == "json";

  if (a.budget.empty() && a.baseline.empty()) {
    std::vector<passes::ValidationCheck> checks = passes::ValidateTrace(*trace);
    size_t failed = 0;
    std::string failures;
    for (const auto& c : checks) {
      if (!c.fatal || c.count == 0) continue;
      ++failed;
      failures += fmt::format("{}{} {}", failures.empty() ? "" : ", ", c.count, c.name);
    }
    return Report(
        a, json ? ValidationJson(a.file, checks, failed) : ValidationText(a.file, checks, *trace),
        failed, failures, ctx);
  }

  passes::FunctionEventList events = passes::BuildFunctionEvents(*trace);
  std::vector<passes::RuleResult> results;
  std::string mode;
  if (!a.budget.empty()) {
    auto r = passes::EvaluateBudget(*trace, events, budget);
    if (!r.ok())
      return Fail(Status(r.status().code(), fmt::format("{}: {}", a.budget, r.status().message())),
                  ctx);
    results = std::move(*r);
    mode = "budget " + a.budget;
  } else {
    auto base = LoadForCommand(a.baseline, a.common, ctx);
    if (!base.ok()) return Fail(base.status(), ctx);
    passes::FunctionEventList base_events = passes::BuildFunctionEvents(*base);
    passes::TraceDiff diff = passes::DiffTraces(*base, base_events, *trace, events, {});
    results = passes::BaselineRules(diff, max_regression);
    mode = fmt::format("baseline {}, at most {:g}% slower", a.baseline, max_regression * 100);
  }
  size_t failed = 0;
  std::string failures;
  for (const auto& r : results) {
    if (r.passed) continue;
    ++failed;
    failures += fmt::format("{}{} is {} (limit {})", failures.empty() ? "" : "; ", r.rule.name,
                            Show(r.value, r.rule.metric), Limits(r));
  }
  return Report(a, json ? Json(a.file, mode, results) : Text(a.file, mode, results), failed,
                failures, ctx);
}

}  // namespace

void RegisterCheckCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand("check",
                                     "CI gate: check a trace against a budget file or a baseline "
                                     "trace, or validate it; exit 1 on failure");
  cmd->add_option("FILE", args->file, "Trace file to check")->required();
  cmd->add_option("--budget", args->budget,
                  "Budget file (JSON; docs/budget.md): rules with limits");
  cmd->add_option("--baseline", args->baseline,
                  "A reference trace: fail when FILE is slower by --max-regression");
  cmd->add_option("--max-regression", args->max_regression,
                  "Allowed growth over the baseline: 5% or 0.05")
      ->default_str("5%");
  AddCommonOptions(cmd, &args->common, {"text", "json"});
  cmd->callback([args, &ctx] { ctx.run = [args, &ctx] { return RunCheck(*args, ctx); }; });
}

}  // namespace profana::app
