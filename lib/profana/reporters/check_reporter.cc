#include "profana/reporters/check_reporter.h"

#include <cmath>

#include "fmt/format.h"
#include "profana/base/json_writer.h"
#include "profana/base/terminal_text.h"
#include "profana/reporters/number_format.h"

namespace profana::report {
namespace {

std::string Show(double v, passes::BudgetMetric m) {
  std::string unit = passes::BudgetMetricUnit(m);
  if (unit == "us") return FormatTime(v);
  if (unit == "bytes") return FormatBytes(static_cast<int64_t>(v));
  if (unit == "share") return fmt::format("{:.2f}%", 100 * v);
  return v == std::floor(v) ? fmt::format("{}", static_cast<int64_t>(v)) : fmt::format("{:.2f}", v);
}

std::string Limits(const passes::RuleResult& r) {
  std::string s;
  if (r.rule.min) s += ">= " + Show(*r.rule.min, r.rule.metric);
  if (r.rule.max) s += (s.empty() ? "<= " : ", <= ") + Show(*r.rule.max, r.rule.metric);
  return s;
}

std::string Shorten(std::string_view s) {
  return s.size() <= 60 ? std::string(s) : std::string(s.substr(0, 57)) + "...";
}

}  // namespace

std::string BudgetMode(const std::string& budget) { return "budget " + budget; }

std::string BaselineMode(const std::string& baseline, double max_regression) {
  return fmt::format("baseline {}, at most {:g}% slower", baseline, max_regression * 100);
}

std::string FormatCheckText(const std::string& file, const std::string& mode,
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

std::string FormatCheckJson(const std::string& file, const std::string& mode,
                            const std::vector<passes::RuleResult>& results) {
  std::string out;
  JsonWriter w(&out);
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

std::string RuleFailures(const std::vector<passes::RuleResult>& results) {
  std::string failures;
  for (const auto& r : results) {
    if (r.passed) continue;
    failures += fmt::format("{}{} is {} (limit {})", failures.empty() ? "" : "; ", r.rule.name,
                            Show(r.value, r.rule.metric), Limits(r));
  }
  return failures;
}

std::string FormatValidationText(const std::string& file,
                                 const std::vector<passes::ValidationCheck>& checks, TraceNames t) {
  std::string out = fmt::format("{}: trace validation\n", file);
  for (const auto& c : checks) {
    bool ok = !c.fatal || c.count == 0;
    out += fmt::format("  {}  {:<28}  {:>8}  {}", ok ? (c.fatal ? "ok  " : "info") : "FAIL", c.name,
                       c.count, c.description);
    if (c.first_event)
      out += fmt::format("; first: \"{}\" at event #{}",
                         Shorten(Printable(t.str(t.events.trace_name[c.first_event->value]))),
                         c.first_event->value);
    out += "\n";
  }
  return out;
}

std::string FormatValidationJson(const std::string& file,
                                 const std::vector<passes::ValidationCheck>& checks) {
  size_t failed = 0;
  for (const auto& c : checks) failed += c.fatal && c.count != 0;
  std::string out;
  JsonWriter w(&out);
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

std::string ValidationFailures(const std::vector<passes::ValidationCheck>& checks) {
  std::string failures;
  for (const auto& c : checks) {
    if (!c.fatal || c.count == 0) continue;
    failures += fmt::format("{}{} {}", failures.empty() ? "" : ", ", c.count, c.name);
  }
  return failures;
}

CheckReport ReportRules(bool json, const std::string& file, const std::string& mode,
                        const std::vector<passes::RuleResult>& results) {
  size_t failed = 0;
  for (const auto& r : results) failed += r.passed ? 0 : 1;
  return {json ? FormatCheckJson(file, mode, results) : FormatCheckText(file, mode, results),
          RuleFailures(results),
          fmt::format("{} of {} rule{} failed", failed, results.size(),
                      results.size() == 1 ? "" : "s")};
}

CheckReport ReportValidation(bool json, const std::string& file,
                             const std::vector<passes::ValidationCheck>& checks, TraceNames names) {
  std::string failures = ValidationFailures(checks);
  return {json ? FormatValidationJson(file, checks) : FormatValidationText(file, checks, names),
          failures, failures};
}

}  // namespace profana::report
