#include "profana/reporters/advise_reporter.h"

#include "fmt/format.h"
#include "profana/base/json_writer.h"
#include "profana/base/terminal_text.h"
#include "profana/reporters/grid.h"
#include "profana/reporters/number_format.h"
#include "profana/reporters/table_reporter.h"

namespace profana::report {
namespace {

std::string Where(const job::Finding& f) {
  return f.rank >= 0 ? fmt::format("rank {}", f.rank) : std::string();
}

std::string StepsText(const std::vector<int64_t>& steps) {
  if (steps.empty()) return "";
  std::string out;
  for (size_t i = 0; i < steps.size();) {
    size_t j = i;
    while (j + 1 < steps.size() && steps[j + 1] == steps[j] + 1) ++j;
    out += (out.empty() ? "" : ",") +
           (j > i ? fmt::format("{}-{}", steps[i], steps[j]) : fmt::format("{}", steps[i]));
    i = j + 1;
  }
  return out;
}

const job::AdviceRule& Rule(const job::Finding& f) {
  static const job::AdviceRule kUnknown{"", "", "", "", nullptr};
  const job::AdviceRule* r = job::FindAdviceRule(f.rule);
  return r ? *r : kUnknown;
}

}  // namespace

std::string FormatAdviceText(const job::AdviceReport& r, int64_t top) {
  std::string out;
  if (r.findings.empty()) {
    out += "No findings: none of the rules fired";
    if (r.critical_path_ns > 0)
      out += fmt::format(" (critical path {})", FormatTimeNs(r.critical_path_ns));
    return out + "\n";
  }
  out += fmt::format(
      "{} findings, by estimated saving (bounded by the critical path, {} over the "
      "steps analysed)\n",
      r.findings.size(), FormatTimeNs(r.critical_path_ns));
  int64_t shown = 0;
  for (const job::Finding& f : r.findings) {
    if (top >= 0 && shown >= top) break;
    ++shown;
    const job::AdviceRule& rule = Rule(f);
    std::string where = Where(f);
    out += fmt::format("\n{:>2}. {:<18} save up to {:>10}  {}{}\n", shown, f.rule,
                       FormatTimeNs(f.saving_ns), rule.title,
                       where.empty() ? "" : "  (" + where + ")");
    out += "    " + Printable(f.evidence) + "\n";
    for (const job::FindingItem& i : f.items)
      out += fmt::format("      {:>10}  {:>7}  {}\n", FormatTimeNs(i.ns),
                         i.count > 0 ? fmt::format("{}x", i.count) : std::string(),
                         TruncateName(Printable(i.name), 80));
    if (!f.steps.empty()) out += "    steps: " + StepsText(f.steps) + "\n";
    out += "    fix: " + std::string(rule.fix) + "\n";
  }
  if (shown < static_cast<int64_t>(r.findings.size()))
    out += fmt::format("\n{} more (-n to show them)\n", r.findings.size() - shown);
  return out;
}

std::string FormatAdviceMarkdown(const job::AdviceReport& r) {
  Grid g;
  g.headers = {"#", "rule", "where", "saving", "count", "evidence", "fix"};
  g.left = {false, true, true, false, false, true, true};
  int64_t n = 0;
  for (const job::Finding& f : r.findings)
    g.AddRow({fmt::format("{}", ++n), f.rule, Where(f), DurationCell(f.saving_ns, false),
              fmt::format("{}", f.count), f.evidence, Rule(f).fix});
  std::string out = "### profana advise\n\n";
  if (r.findings.empty()) return out + "No findings.\n";
  return out + g.Markdown();
}

std::string FormatAdviceCsv(const job::AdviceReport& r) {
  Grid g;
  g.headers = {"rule", "rank", "saving_us", "raw_saving_us", "count", "steps", "evidence", "fix"};
  for (const job::Finding& f : r.findings)
    g.AddRow({f.rule, fmt::format("{}", f.rank), MicrosText(f.saving_ns),
              MicrosText(f.raw_saving_ns), fmt::format("{}", f.count), StepsText(f.steps),
              f.evidence, Rule(f).fix});
  return g.Csv();
}

std::string FormatAdviceJson(const job::AdviceReport& r) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.advise/1");
  w.Key("unit").String("us");
  w.Key("inputs").BeginArray();
  for (const std::string& s : r.inputs) w.String(s);
  w.EndArray();
  w.Key("ranks").BeginArray();
  for (int64_t k : r.ranks) w.Int(k);
  w.EndArray();
  w.Key("critical_path").Micros(r.critical_path_ns);
  w.Key("steps_wall").Micros(r.steps_wall_ns);
  w.Key("findings").BeginArray();
  for (const job::Finding& f : r.findings) {
    const job::AdviceRule& rule = Rule(f);
    w.BeginObject();
    w.Key("rule").String(f.rule);
    w.Key("title").String(rule.title);
    if (f.rank >= 0)
      w.Key("rank").Int(f.rank);
    else
      w.Key("rank").Null();
    w.Key("saving").Micros(f.saving_ns);
    w.Key("raw_saving").Micros(f.raw_saving_ns);
    w.Key("count").Int(f.count);
    w.Key("evidence").String(f.evidence);
    w.Key("steps").BeginArray();
    for (int64_t s : f.steps) w.Int(s);
    w.EndArray();
    w.Key("items").BeginArray();
    for (const job::FindingItem& i : f.items) {
      w.BeginObject();
      w.Key("name").String(i.name);
      w.Key("count").Int(i.count);
      w.Key("time").Micros(i.ns);
      w.EndObject();
    }
    w.EndArray();
    w.Key("fix").String(rule.fix);
    w.Key("source").String(rule.source);
    w.EndObject();
  }
  w.EndArray();
  w.Key("rules").BeginArray();
  for (const job::AdviceRule& rule : job::AdviceRules()) {
    w.BeginObject();
    w.Key("rule").String(rule.id);
    w.Key("runs").Bool(rule.run != nullptr || std::string_view(rule.id) == "straggler");
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  out += '\n';
  return out;
}

std::string FormatAdviceAs(OutputFormat format, const job::AdviceReport& r, int64_t top) {
  switch (format) {
    case OutputFormat::kJson:
      return FormatAdviceJson(r);
    case OutputFormat::kCsv:
      return FormatAdviceCsv(r);
    case OutputFormat::kMarkdown:
      return FormatAdviceMarkdown(r);
    default:
      return FormatAdviceText(r, top);
  }
}

}  // namespace profana::report
