#include "profana/reporters/idle_reporter.h"

#include <algorithm>
#include <cstdint>

#include "fmt/format.h"
#include "profana/base/json_writer.h"
#include "profana/base/terminal_text.h"
#include "profana/passes/kernel_names.h"
#include "profana/reporters/csv_field.h"
#include "profana/reporters/number_format.h"
#include "profana/reporters/table_reporter.h"
#include "profana/reporters/track_labels.h"

namespace profana::report {
namespace {

double Us(int64_t ns) { return ns / 1000.0; }

std::string Percent(int64_t part, int64_t whole) {
  return whole > 0 ? fmt::format("{:.2f}%", 100.0 * part / whole) : "-";
}

}  // namespace

std::string FormatIdleText(TraceNames t, const passes::FunctionEventList& e,
                           const passes::IdleBreakdown& b, const IdleTextOptions& o) {
  if (b.tracks.empty())
    return "No device activity (no kernel, memcpy or memset): there is no GPU idle time to "
           "measure.\n";
  std::string out = fmt::format(
      "GPU idle time between device activities (kernel wait: gaps under {:g} us after an early "
      "launch)\n",
      Us(b.consecutive_kernel_delay_ns));
  out +=
      fmt::format("  {:>6}  {:<12}  {:>9}  {:>12}  {:>12}  {:>12}  {:>8}  {:>12}  {:>12}  {:>12}\n",
                  "device", "stream", "activities", "window", "busy", "idle", "idle %", "host wait",
                  "kernel wait", "other");
  for (const passes::IdleTrack& tr : b.tracks) {
    out += fmt::format(
        "  {:>6}  {:<12}  {:>9}  {:>12}  {:>12}  {:>12}  {:>8}  {:>12}  {:>12}  {:>12}\n",
        tr.device, Printable(StreamName(t, tr.stream)), tr.kernels, FormatTime(Us(tr.window_ns)),
        FormatTime(Us(tr.busy_ns)), FormatTime(Us(tr.idle_ns())),
        Percent(tr.idle_ns(), tr.window_ns), FormatTime(Us(tr.gap_ns[0])),
        FormatTime(Us(tr.gap_ns[1])), FormatTime(Us(tr.gap_ns[2])));
  }
  if (b.unlaunched_gaps)
    out += fmt::format(
        "{} gaps ({}) come before activities whose launch is not in the trace: they count as "
        "other, since nothing tells host wait from kernel wait there\n",
        b.unlaunched_gaps, FormatTime(Us(b.unlaunched_gap_ns)));
  if (b.longest.empty()) return out;
  out += fmt::format("\nLongest gaps (of {} shown)\n", o.gaps_asked);
  size_t width = o.max_name_width && !o.no_truncate
                     ? static_cast<size_t>(std::max(*o.max_name_width, 1))
                     : SIZE_MAX;
  auto name = [&](std::string_view s) { return TruncateName(Printable(s), width); };
  for (const passes::Gap& g : b.longest) {
    std::string_view next = t.str(t.events.name[g.next_activity.value]);
    std::string op = g.running_op ? name(t.str(e.name[g.running_op->value]))
                     : g.inside_graph
                         ? "(inside one graph replay: the GPU's scheduling, not the CPU)"
                     : g.launch_missing ? "(cannot tell: the launch is not in the trace)"
                                        : "(no op running on the launching thread)";
    out +=
        fmt::format("  {:>12}  at {:>14}  device {} {}  {:<11}  before {}\n    CPU was in: {}\n",
                    FormatTime(Us(g.end_ns - g.start_ns)), FormatTime(Us(g.start_ns - e.origin_ns)),
                    g.device, Printable(StreamName(t, g.stream)), passes::GapKindName(g.kind),
                    name(o.full_names ? std::string(next) : passes::ShortKernelName(next)), op);
  }
  return out;
}

std::string FormatIdleCsv(TraceNames t, const passes::IdleBreakdown& b) {
  std::string out =
      "device,stream,activities,window_us,busy_us,idle_us,host_wait_us,kernel_wait_us,other_us\n";
  auto us = [](int64_t ns) {
    std::string s;
    JsonWriter(&s, JsonLayout::kCompact).Micros(ns);
    return s;
  };
  for (const passes::IdleTrack& tr : b.tracks)
    out +=
        fmt::format("{},{},{},{},{},{},{},{},{}\n", tr.device, CsvField(StreamName(t, tr.stream)),
                    tr.kernels, us(tr.window_ns), us(tr.busy_ns), us(tr.idle_ns()),
                    us(tr.gap_ns[0]), us(tr.gap_ns[1]), us(tr.gap_ns[2]));
  return out;
}

std::string FormatIdleJson(const std::string& input, TraceNames t,
                           const passes::FunctionEventList& e, const passes::IdleBreakdown& b) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.idle/1");
  w.Key("input").String(input);
  w.Key("consecutive_kernel_delay_ns").Int(b.consecutive_kernel_delay_ns);
  w.Key("tracks").BeginArray();
  for (const passes::IdleTrack& tr : b.tracks) {
    w.BeginObject();
    w.Key("device").Int(tr.device);
    w.Key("stream").String(StreamName(t, tr.stream));
    w.Key("activities").Int(tr.kernels);
    w.Key("window_us").Micros(tr.window_ns);
    w.Key("busy_us").Micros(tr.busy_ns);
    w.Key("idle_us").Micros(tr.idle_ns());
    w.Key("idle_share")
        .Double(tr.window_ns > 0 ? static_cast<double>(tr.idle_ns()) / tr.window_ns : 0.0);
    w.Key("host_wait_us").Micros(tr.gap_ns[0]);
    w.Key("kernel_wait_us").Micros(tr.gap_ns[1]);
    w.Key("other_us").Micros(tr.gap_ns[2]);
    w.EndObject();
  }
  w.EndArray();
  w.Key("longest_gaps").BeginArray();
  for (const passes::Gap& g : b.longest) {
    w.BeginObject();
    w.Key("device").Int(g.device);
    w.Key("stream").String(StreamName(t, g.stream));
    w.Key("start_us").Micros(g.start_ns - e.origin_ns);
    w.Key("duration_us").Micros(g.end_ns - g.start_ns);
    w.Key("kind").String(passes::GapKindName(g.kind));
    w.Key("next_activity").String(t.str(t.events.name[g.next_activity.value]));
    w.Key("cpu_op");
    if (g.running_op)
      w.String(t.str(e.name[g.running_op->value]));
    else
      w.Null();
    w.Key("launch_in_trace").Bool(!g.launch_missing);
    w.Key("inside_graph").Bool(g.inside_graph);
    w.EndObject();
  }
  w.EndArray();
  w.Key("unlaunched_gaps").Int(b.unlaunched_gaps);
  w.Key("unlaunched_gap_us").Micros(b.unlaunched_gap_ns);
  w.EndObject();
  return out;
}

std::string FormatIdleAs(OutputFormat format, const std::string& input, TraceNames names,
                         const passes::FunctionEventList& events,
                         const passes::IdleBreakdown& breakdown, const IdleTextOptions& options) {
  switch (format) {
    case OutputFormat::kJson:
      return FormatIdleJson(input, names, events, breakdown);
    case OutputFormat::kCsv:
      return FormatIdleCsv(names, breakdown);
    default:
      return FormatIdleText(names, events, breakdown, options);
  }
}

}  // namespace profana::report
