#include "profana/reporters/diff_reporter.h"

#include <algorithm>
#include <cmath>

#include "fmt/color.h"
#include "fmt/format.h"
#include "profana/base/json_writer.h"
#include "profana/base/terminal_text.h"
#include "profana/passes/kernel_names.h"
#include "profana/reporters/csv_field.h"
#include "profana/reporters/markup_text.h"
#include "profana/reporters/number_format.h"
#include "profana/reporters/table_reporter.h"

namespace profana::report {
namespace {

using passes::DiffRow;
using passes::DiffValues;
using passes::TraceDiff;

constexpr size_t kNameWidth = 48;
constexpr size_t kListed = 10;  // added / removed names listed by the text and Markdown reports

// The rows a report shows: the first `limit` ops, then the first `limit` annotations.
struct Sections {
  size_t ops = 0, annotations = 0;  // how many of each are shown
  size_t Annotations(const TraceDiff& d) const { return d.rows.size() - d.ops; }
};
Sections Shown(const TraceDiff& d, int64_t limit) {
  auto cut = [limit](size_t n) { return limit < 0 ? n : std::min(n, static_cast<size_t>(limit)); };
  return {cut(d.ops), cut(d.rows.size() - d.ops)};
}
// The indexes into d.rows of the shown rows, ops first.
std::vector<size_t> ShownRows(const TraceDiff& d, const Sections& s) {
  std::vector<size_t> out;
  for (size_t i = 0; i < s.ops; ++i) out.push_back(i);
  for (size_t i = 0; i < s.annotations; ++i) out.push_back(d.ops + i);
  return out;
}
// The annotations section's title: how many, and why they are apart.
std::string AnnotationsTitle(const TraceDiff& d, const Sections& s) {
  size_t n = s.Annotations(d);
  return fmt::format(
      "User annotations ({}{}): record_function and NVTX ranges, ranked apart from the "
      "ops (a GPU annotation's self device time is its whole span)",
      n, s.annotations < n ? fmt::format(", top {}", s.annotations) : "");
}

// The ops' table, then (when any is shown) the annotations' title, ended by `title_end`, and
// table: `header` above each, `line(row)` for each row.
template <typename Line>
std::string RowTables(const TraceDiff& d, const Sections& shown, const std::string& header,
                      const char* title_end, const Line& line) {
  std::string out = header;
  for (size_t i = 0; i < shown.ops; ++i) out += line(d.rows[i]);
  if (shown.annotations) {
    out += "\n" + AnnotationsTitle(d, shown) + title_end + header;
    for (size_t i = 0; i < shown.annotations; ++i) out += line(d.rows[d.ops + i]);
  }
  return out;
}

std::string Status(const DiffRow& r) {
  return r.in_base ? (r.in_new ? "both" : "removed") : "added";
}

std::string Device(const DiffRow& r) {
  return r.device_type == passes::DeviceType::kCPU ? "cpu" : "device";
}

// JSON and CSV write the values table writes (PyTorch's DeviceType names), so one script reads
// both; the text and Markdown columns keep their lower-case labels.
std::string DeviceType(const DiffRow& r) {
  return r.device_type == passes::DeviceType::kCPU ? "CPU" : "CUDA";
}

// The row's name with its grouping (input shapes, or the first stack frame), for text and
// markdown: control characters (a newline too) shown visibly. A device row's kernel name is
// shortened as `kernels` shortens it (template and parameter lists elided) unless --full-names.
std::string Label(const DiffRow& r, const DiffReportOptions& o) {
  bool kernel = r.device_type != passes::DeviceType::kCPU;
  std::string s = kernel && !o.full_names ? passes::ShortKernelName(r.name) : r.name;
  if (!r.input_shapes.empty()) s += " " + r.input_shapes;
  if (!r.stack.empty()) s += " @ " + r.stack.front();
  return Printable(s);
}

// The widest name a format shows: --max-name-width, else the format's own width; SIZE_MAX under
// --no-truncate.
size_t NameWidth(const DiffReportOptions& o, size_t format_width) {
  if (o.no_truncate) return SIZE_MAX;
  return o.max_name_width ? static_cast<size_t>(std::max(*o.max_name_width, 1)) : format_width;
}

std::string Count(double c) {
  return c == std::floor(c) ? fmt::format("{}", static_cast<int64_t>(c)) : fmt::format("{:.2f}", c);
}

std::string Change(double v, passes::DiffMetric m) {
  if (m != passes::DiffMetric::kCount) return SignedTime(v);
  return (v > 0 ? "+" : v < 0 ? "-" : "") + Count(std::fabs(v));
}

std::string Relative(const DiffRow& r) {
  if (!r.in_base) return "added";
  if (!r.in_new) return "removed";
  return SignedPercent(r.change, r.base_metric);
}

// A job's steps are its (rank, step) pairs: "16 rank-steps on 8 ranks".
std::string StepCount(const passes::DiffTotals& t) {
  return fmt::format("{} rank-step{} on {} rank{}", t.steps, t.steps == 1 ? "" : "s", t.ranks,
                     t.ranks == 1 ? "" : "s");
}

std::string Scope(const TraceDiff& d) {
  if (d.base.ranks || d.next.ranks) {
    if (d.per_step)
      return fmt::format("per rank and step (BASE has {}, NEW {})", StepCount(d.base),
                         StepCount(d.next));
    if (d.base.steps > 0 && d.base.steps == d.next.steps)
      return fmt::format("totals over BASE's {} and NEW's {}", StepCount(d.base),
                         StepCount(d.next));
    return "totals over each job";
  }
  if (d.per_step)
    return fmt::format("per step (BASE has {} steps, NEW {})", d.base.steps, d.next.steps);
  if (d.base.steps > 0 && d.base.steps == d.next.steps)
    return fmt::format("totals over {} step{} each", d.base.steps, d.base.steps == 1 ? "" : "s");
  return "totals over each trace";
}

std::string MetricLabel(passes::DiffMetric m) {
  switch (m) {
    case passes::DiffMetric::kSelf:
      return "self time (self CPU + self device)";
    case passes::DiffMetric::kSelfCpu:
      return "self CPU time";
    case passes::DiffMetric::kSelfDevice:
      return "self device time";
    case passes::DiffMetric::kCpuTotal:
      return "total CPU time";
    case passes::DiffMetric::kDeviceTotal:
      return "total device time";
    case passes::DiffMetric::kCount:
      return "count";
  }
  return "";
}

struct SummaryLine {
  const char* label;
  double base, next;
  bool is_count;
};

std::vector<SummaryLine> Summary(const TraceDiff& d) {
  std::vector<SummaryLine> s = {
      {"Self CPU time", d.base.self_cpu_us, d.next.self_cpu_us, false},
      {"Self device time", d.base.self_device_us, d.next.self_device_us, false}};
  if (d.base.steps > 0 && d.next.steps > 0)
    s.push_back({"Step time (mean)", d.base.step_time_us, d.next.step_time_us, false});
  s.push_back(
      {"Steps", static_cast<double>(d.base.steps), static_cast<double>(d.next.steps), true});
  return s;
}

std::string SummaryValue(double v, bool is_count) { return is_count ? Count(v) : FormatTime(v); }
std::string SummaryChange(const SummaryLine& l) {
  double c = l.next - l.base;
  std::string abs = l.is_count ? (c > 0   ? "+"
                                  : c < 0 ? "-"
                                          : "") +
                                     Count(std::fabs(c))
                               : SignedTime(c);
  return fmt::format("{} ({})", abs, SignedPercent(c, l.base));
}

std::string Names(const TraceDiff& d, const DiffReportOptions& o, bool added, const char* sep,
                  bool code, size_t width) {
  std::string out;
  size_t n = 0, total = added ? d.added : d.removed;
  for (const DiffRow& r : d.rows) {
    if (!(added ? (r.in_new && !r.in_base) : (r.in_base && !r.in_new))) continue;
    if (n++ == kListed) break;
    std::string label = TruncateName(Label(r, o), width);
    out += fmt::format("{}{}", n > 1 ? sep : "", code ? MarkdownCode(label) : label);
  }
  if (total > kListed) out += fmt::format("{}and {} more", sep, total - kListed);
  return out;
}

std::string Paint(const std::string& s, double change, bool color) {
  if (!color || change == 0) return s;
  // Red grew, green shrank: "\x1b[31m" ... "\x1b[0m", an SGR sequence Emit keeps as colour.
  auto colour = fmt::fg(change > 0 ? fmt::terminal_color::red : fmt::terminal_color::green);
  return fmt::format("{}", fmt::styled(s, colour));
}

// Right-aligned to width, painted after padding so escape codes do not count.
std::string Cell(const std::string& s, size_t width, double change, bool color) {
  return Paint(fmt::format("{:>{}}", s, width), change, color);
}

double Rounded(double v) { return std::round(v * 1000) / 1000; }

void JsonValues(JsonWriter& w, const DiffValues& v) {
  w.BeginObject();
  w.Key("count").Double(Rounded(v.count));
  w.Key("self_cpu_us").Double(Rounded(v.self_cpu_us));
  w.Key("cpu_total_us").Double(Rounded(v.cpu_total_us));
  w.Key("self_device_us").Double(Rounded(v.self_device_us));
  w.Key("device_total_us").Double(Rounded(v.device_total_us));
  w.EndObject();
}

void JsonTotals(JsonWriter& w, const passes::DiffTotals& t) {
  w.BeginObject();
  w.Key("steps").Int(t.steps);
  w.Key("step_time_us").Double(Rounded(t.step_time_us));
  w.Key("self_cpu_us").Double(Rounded(t.self_cpu_us));
  w.Key("self_device_us").Double(Rounded(t.self_device_us));
  w.Key("function_events").Int(t.events);
  if (t.ranks) w.Key("ranks").Int(t.ranks);
  w.EndObject();
}

}  // namespace

std::string SignedTime(double us) {
  if (us == 0) return "0.000us";
  return (us > 0 ? "+" : "-") + FormatTime(std::fabs(us));
}

std::string SignedPercent(double change, double base) {
  if (base == 0) return change == 0 ? "0.0%" : "new";
  double p = 100 * change / std::fabs(base);
  return fmt::format("{}{:.1f}%", p > 0 ? "+" : p < 0 ? "-" : "", std::fabs(p));
}

std::string FormatDiffText(const TraceDiff& d, const DiffReportOptions& o) {
  std::string out = o.rank ? fmt::format("== rank {} ==\n", *o.rank) : std::string();
  out += fmt::format("BASE {}\nNEW  {}\n{}\n\n", o.base_name, o.new_name, Scope(d));
  out += fmt::format("{:<18}  {:>12}  {:>12}  {:>22}\n", "", "BASE", "NEW", "change");
  for (const SummaryLine& l : Summary(d))
    out += fmt::format("{:<18}  {:>12}  {:>12}  {}\n", l.label, SummaryValue(l.base, l.is_count),
                       SummaryValue(l.next, l.is_count),
                       Cell(SummaryChange(l), 22, l.next - l.base, o.color));
  Sections shown = Shown(d, o.row_limit);
  out += fmt::format(
      "\n{} keys: {} in both, {} added, {} removed; ops by the change of {}, largest first{}\n\n",
      d.rows.size(), d.rows.size() - d.added - d.removed, d.added, d.removed, MetricLabel(d.sort),
      shown.ops < d.ops ? fmt::format(" (top {})", shown.ops) : "");
  size_t width = NameWidth(o, kNameWidth);
  if (width == SIZE_MAX) {  // as wide as the longest name shown
    width = 4;
    for (size_t i : ShownRows(d, shown))
      width = std::max(width, CodePointLength(Label(d.rows[i], o)));
  }
  std::string header =
      fmt::format("{:<{}}  {:<6}  {:>15}  {:>21}  {:>21}  {:>12}  {:>8}\n", "Name", width, "Where",
                  "Count", "Self CPU", "Self device", "Change", "Rel.");
  auto line = [&](const DiffRow& r) {
    return fmt::format(
        "{:<{}}  {:<6}  {:>15}  {:>21}  {:>21}  {}  {}\n", TruncateName(Label(r, o), width), width,
        Device(r), Count(r.base.count) + " > " + Count(r.next.count),
        FormatTime(r.base.self_cpu_us) + " > " + FormatTime(r.next.self_cpu_us),
        FormatTime(r.base.self_device_us) + " > " + FormatTime(r.next.self_device_us),
        Cell(Change(r.change, d.sort), 12, r.change, o.color),
        Cell(Relative(r), 8, r.change, o.color));
  };
  out += RowTables(d, shown, header, "\n", line);
  if (d.added)
    out += fmt::format("\nAdded ({}): {}\n", d.added,
                       Names(d, o, true, ", ", false, NameWidth(o, kNameWidth)));
  if (d.removed)
    out += fmt::format("{}Removed ({}): {}\n", d.added ? "" : "\n", d.removed,
                       Names(d, o, false, ", ", false, NameWidth(o, kNameWidth)));
  return out;
}

std::string FormatDiffMarkdown(const TraceDiff& d, const DiffReportOptions& o) {
  std::string out = fmt::format("### profana diff{}\n\nBASE {}, NEW {}: {}.\n\n",
                                o.rank ? fmt::format(", rank {}", *o.rank) : std::string(),
                                MarkdownCode(o.base_name), MarkdownCode(o.new_name), Scope(d));
  out += "| | BASE | NEW | Change |\n|---|---:|---:|---:|\n";
  for (const SummaryLine& l : Summary(d))
    out += fmt::format("| {} | {} | {} | {} |\n", l.label, SummaryValue(l.base, l.is_count),
                       SummaryValue(l.next, l.is_count), SummaryChange(l));
  Sections shown = Shown(d, o.row_limit);
  out += fmt::format(
      "\n{} keys: {} in both, {} added, {} removed. Ops by the change of {}, largest first{}.\n\n",
      d.rows.size(), d.rows.size() - d.added - d.removed, d.added, d.removed, MetricLabel(d.sort),
      shown.ops < d.ops ? fmt::format(" (top {})", shown.ops) : "");
  const char* header =
      "| Name | Where | Count | Self CPU | Self device | Change | Rel. "
      "|\n|---|---|---:|---:|---:|---:|---:|\n";
  auto line = [&](const DiffRow& r) {
    return fmt::format("| {} | {} | {} → {} | {} → {} | {} → {} | {} | {} |\n",
                       MarkdownCell(MarkdownCode(TruncateName(Label(r, o), NameWidth(o, 100)))),
                       Device(r), Count(r.base.count), Count(r.next.count),
                       FormatTime(r.base.self_cpu_us), FormatTime(r.next.self_cpu_us),
                       FormatTime(r.base.self_device_us), FormatTime(r.next.self_device_us),
                       Change(r.change, d.sort), Relative(r));
  };
  out += RowTables(d, shown, header, ".\n\n", line);
  if (d.added)
    out += fmt::format("\n**Added** ({}): {}\n", d.added,
                       MarkdownCell(Names(d, o, true, ", ", true, NameWidth(o, kNameWidth))));
  if (d.removed)
    out += fmt::format("\n**Removed** ({}): {}\n", d.removed,
                       MarkdownCell(Names(d, o, false, ", ", true, NameWidth(o, kNameWidth))));
  return out;
}

std::string FormatDiffCsv(const TraceDiff& d, const DiffReportOptions& o) {
  std::string rank = o.rank ? fmt::format("{},", *o.rank) : std::string();
  std::string out;
  if (o.csv_header)
    out = std::string(o.rank ? "rank," : "") +
          "name,device_type,input_shapes,stack,status,count_base,count_new,self_cpu_us_base,self_"
          "cpu_us_new,"
          "cpu_total_us_base,cpu_total_us_new,self_device_us_base,self_device_us_new,device_total_"
          "us_base,"
          "device_total_us_new,change,relative_change,annotation\n";
  std::string num;
  auto n = [&num](double v) {
    num.clear();
    JsonWriter(&num, JsonLayout::kCompact).Double(Rounded(v));
    return num;
  };
  for (size_t i : ShownRows(d, Shown(d, o.row_limit))) {
    const DiffRow& r = d.rows[i];
    std::string stack;
    for (const std::string& f : r.stack) stack += (stack.empty() ? "" : ";") + f;
    out += rank + fmt::format("{},{},{},{},{}", CsvField(r.name), DeviceType(r),
                              CsvField(r.input_shapes), CsvField(stack), Status(r));
    for (double v :
         {r.base.count, r.next.count, r.base.self_cpu_us, r.next.self_cpu_us, r.base.cpu_total_us,
          r.next.cpu_total_us, r.base.self_device_us, r.next.self_device_us, r.base.device_total_us,
          r.next.device_total_us, r.change})
      out += "," + n(v);
    out += r.in_base && r.in_new && r.base_metric != 0 ? "," + n(r.relative()) : std::string(",");
    out += r.annotation ? ",true\n" : ",false\n";
  }
  return out;
}

std::string FormatDiffJson(const TraceDiff& d, const DiffReportOptions& o) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.diff/1");
  if (o.rank) w.Key("rank").Int(*o.rank);
  w.Key("base").String(o.base_name);
  w.Key("new").String(o.new_name);
  w.Key("per_step").Bool(d.per_step);
  w.Key("sort_by").String(passes::DiffMetricName(d.sort));
  w.Key("group_by_input_shape").Bool(d.grouped_by_input_shape);
  w.Key("group_by_stack_n").Int(d.grouped_by_stack);
  w.Key("totals").BeginObject();
  w.Key("base");
  JsonTotals(w, d.base);
  w.Key("new");
  JsonTotals(w, d.next);
  w.EndObject();
  w.Key("rows_total").Int(static_cast<int64_t>(d.rows.size()));
  w.Key("added").Int(static_cast<int64_t>(d.added));
  w.Key("removed").Int(static_cast<int64_t>(d.removed));
  Sections shown = Shown(d, o.row_limit);
  w.Key("rows").BeginArray();
  for (size_t i : ShownRows(d, shown)) {
    const DiffRow& r = d.rows[i];
    if (i == d.ops) w.EndArray().Key("annotations").BeginArray();
    w.BeginObject();
    w.Key("name").String(r.name);
    w.Key("device_type").String(DeviceType(r));
    if (d.grouped_by_input_shape) w.Key("input_shapes").String(r.input_shapes);
    if (d.grouped_by_stack > 0) {
      w.Key("stack").BeginArray();
      for (const std::string& f : r.stack) w.String(f);
      w.EndArray();
    }
    w.Key("status").String(Status(r));
    w.Key("base");
    JsonValues(w, r.base);
    w.Key("new");
    JsonValues(w, r.next);
    w.Key("change").Double(Rounded(r.change));
    w.Key("relative_change");
    if (r.in_base && r.in_new && r.base_metric != 0)
      w.Double(r.relative());
    else
      w.Null();
    w.EndObject();
  }
  if (shown.annotations == 0) w.EndArray().Key("annotations").BeginArray();
  w.EndArray();
  w.EndObject();
  return out;
}

std::string FormatDiffAs(OutputFormat format, const TraceDiff& d, const DiffReportOptions& o) {
  switch (format) {
    case OutputFormat::kJson:
      return FormatDiffJson(d, o);
    case OutputFormat::kCsv:
      return FormatDiffCsv(d, o);
    case OutputFormat::kMarkdown:
      return FormatDiffMarkdown(d, o);
    default:
      return FormatDiffText(d, o);
  }
}

std::string FormatRankDiffsAs(OutputFormat format, const std::vector<job::RankDiff>& diffs,
                              DiffReportOptions o) {
  bool json = format == OutputFormat::kJson;
  std::string text = json ? "[\n" : "";
  for (size_t i = 0; i < diffs.size(); ++i) {
    o.rank = diffs[i].rank;
    o.csv_header = i == 0;
    if (i > 0) text += json ? ",\n" : format == OutputFormat::kCsv ? "" : "\n";
    text += FormatDiffAs(format, diffs[i].diff, o);
  }
  return text + (json ? "]\n" : "");
}

}  // namespace profana::report
