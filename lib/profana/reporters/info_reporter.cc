#include "profana/reporters/info_reporter.h"

#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "profana/base/json_writer.h"
#include "profana/base/terminal_text.h"
#include "profana/model/diagnostic_text.h"
#include "profana/reporters/grid.h"
#include "profana/reporters/track_labels.h"

namespace profana::report {
namespace {

// Kind names and counts, by name.
std::map<std::string_view, uint64_t> KindsByName(const passes::EventCounts& s) {
  std::map<std::string_view, uint64_t> kinds;
  for (const auto& [kind, count] : s.events_by_kind) kinds[ActivityKindName(kind)] = count;
  return kinds;
}

constexpr size_t kGraphLinesShown = 20;

// One line per graph replay (the first kGraphLinesShown), and what cannot be credited.
std::string FormatGraphLaunches(const Trace& t, const passes::FunctionEventList& fe,
                                const passes::GraphLaunchSummary& g) {
  std::string out;
  if (!g.replays.empty())
    out += fmt::format("graph launches:  {} ({} device activities, {} credited to an op)\n",
                       g.replays.size(), g.activities, g.credited);
  for (size_t k = 0; k < g.replays.size() && k < kGraphLinesShown; ++k) {
    const passes::GraphReplay& r = g.replays[k];
    std::string what =
        r.activities == 0
            ? "no device activity in the trace"
            : fmt::format(
                  "{} activities on {} from {}, {} busy, {}", r.activities,
                  Printable(StreamName(t, r.stream)),
                  DurationCell(r.first_ns - fe.origin_ns, false), DurationCell(r.busy_ns, false),
                  r.op ? fmt::format("credited to {}", Printable(t.str(fe.name[r.op->value])))
                       : std::string("credited to no op (no op around the launch)"));
    out += fmt::format("  {} at {}: {}\n", Printable(t.str(t.events.name[r.launch.value])),
                       DurationCell(t.events.start_ns[r.launch.value] - fe.origin_ns, false), what);
  }
  if (g.replays.size() > kGraphLinesShown)
    out += fmt::format("  ... {} more (--format json lists them all)\n",
                       g.replays.size() - kGraphLinesShown);
  if (g.unlaunched_groups)
    out += fmt::format(
        "  {} device activities share {} correlation ids that no call in the trace has (graph "
        "replays or launches made before the capture began): no op can be credited with them\n",
        g.unlaunched_activities, g.unlaunched_groups);
  return out;
}

void WriteGraphLaunches(JsonWriter* w, const Trace& t, const passes::FunctionEventList& fe,
                        const passes::GraphLaunchSummary& g) {
  w->Key("graph_launches").BeginArray();
  for (const passes::GraphReplay& r : g.replays) {
    w->BeginObject();
    w->Key("name").String(t.str(t.events.name[r.launch.value]));
    w->Key("start_us").Micros(t.events.start_ns[r.launch.value] - fe.origin_ns);
    w->Key("activities").Int(r.activities);
    w->Key("stream").String(r.activities ? StreamName(t, r.stream) : "");
    w->Key("first_activity_us").Micros(r.activities ? r.first_ns - fe.origin_ns : 0);
    w->Key("busy_us").Micros(r.busy_ns);
    w->Key("op");
    if (r.op)
      w->String(t.str(fe.name[r.op->value]));
    else
      w->Null();
    w->EndObject();
  }
  w->EndArray();
  w->Key("unlaunched_shared_correlations").Int(g.unlaunched_groups);
  w->Key("unlaunched_shared_activities").Int(g.unlaunched_activities);
}

// The profiler options a Kineto header names (it writes each only when it was on), in the order
// of torch.profiler.profile's arguments.
std::vector<std::pair<std::string_view, bool>> HeaderOptions(const TraceMetadata& m) {
  return {{"record_shapes", m.record_shapes},
          {"profile_memory", m.profile_memory},
          {"with_stack", m.with_stack},
          {"with_flops", m.with_flops},
          {"with_modules", m.with_modules}};
}

std::string OptionsText(const Trace& t, const InfoStacks& stacks) {
  if (!RecordsProfilerOptions(t.metadata.format)) return "";
  std::string on;
  for (const auto& [option, set] : HeaderOptions(t.metadata))
    if (set) on += fmt::format("{}{}", on.empty() ? "" : ", ", option);
  if (on.empty()) on = "none named in the header";
  if (stacks.sources.call_stacks)
    on += "; ops carry \"Call stack\" (PyTorch 2.x: experimental_config verbose=True)";
  return fmt::format("profiler options: {}\n", on);
}

std::string StacksText(const InfoStacks& stacks) {
  const passes::PythonStackSources& src = stacks.sources;
  if (src.call_stacks)
    return fmt::format("distinct stacks: {} (\"Call stack\" args)\n", stacks.distinct);
  if (src.python_functions)
    return fmt::format(
        "distinct stacks: {} (rebuilt from {} python_function events; PyTorch 2.x gives its "
        "events no stacks without verbose=True)\n",
        stacks.distinct, src.python_functions);
  return "distinct stacks: 0\n";
}

}  // namespace

std::string FormatInfoText(const std::string& name, const Trace& t, const passes::EventCounts& s,
                           const passes::FunctionEventList& fe,
                           const passes::GraphLaunchSummary& graphs, const InfoStacks& stacks) {
  const TraceMetadata& m = t.metadata;
  std::string out;
  out += fmt::format("file:            {}\n", name);
  out += fmt::format("format:          {}{}\n", TraceFormatName(m.format),
                     m.compressed_bytes ? " (gzip)" : "");
  if (!m.container.empty()) out += fmt::format("container:       {}\n", m.container);
  out += fmt::format("bytes:           {}{}\n", m.input_bytes,
                     m.compressed_bytes ? fmt::format(" ({} compressed)", m.compressed_bytes) : "");
  if (m.lost_bytes) out += fmt::format("lost bytes:      {} (truncated input)\n", m.lost_bytes);
  out += fmt::format("events read:     {}\n", m.raw_events);
  out += fmt::format("duration events: {}\n", t.events.size());
  for (const auto& [kind, count] : KindsByName(s)) out += fmt::format("  {:<20} {}\n", kind, count);
  out += fmt::format("memory events:   {}\n", t.memory.size());
  out += fmt::format("flow events:     {}\n", t.flows.size());
  out += fmt::format("instant events:  {}\n", m.instant_events);
  out += fmt::format("metadata events: {}\n", m.metadata_events);
  out +=
      fmt::format("threads:         {} CPU, {} device streams\n", s.cpu_threads, s.device_streams);
  out += OptionsText(t, stacks);
  out += StacksText(stacks);
  out += fmt::format("function events: {} ({} duplicate nodes removed)\n", fe.size(),
                     fe.removed_duplicates);
  if (fe.kernels_attributed + fe.kernels_unattributed)
    out +=
        fmt::format("device activity: {} credited to an op, {} to none (--link {})\n",
                    fe.kernels_attributed, fe.kernels_unattributed, passes::LinkRuleName(fe.link));
  if (fe.launches_linked + fe.launches_enclosed + fe.launches_unattributed)
    out += fmt::format(
        "launches:        {} linked by External id, {} by the enclosing op, {} to no op; {} "
        "where link and enclosing op disagree{}\n",
        fe.launches_linked, fe.launches_enclosed, fe.launches_unattributed,
        fe.external_id_mismatches, fe.trace_has_links ? "" : " (the trace records no links)");
  if (fe.id_collisions)
    out += fmt::format(
        "id collisions:   {} calls no op links have an op's External id as their correlation id; "
        "PyTorch credits them that op's device work (--link pytorch does too)\n",
        fe.id_collisions);
  out += FormatGraphLaunches(t, fe, graphs);
  if (t.events.size() != 0)
    out += fmt::format("span:            {}\n", DurationCell(s.last_ns - s.first_ns, false));
  if (!m.producer.empty()) out += fmt::format("written by:      {}\n", Printable(m.producer));
  if (!m.devices.empty()) {
    std::map<std::string, int> devices;
    for (const std::string& d : m.devices) ++devices[d.empty() ? "(unnamed)" : d];
    std::string list;
    for (const auto& [d, n] : devices)
      list += fmt::format("{}{} x{}", list.empty() ? "" : ", ", Printable(d), n);
    out += fmt::format("devices:         {}\n", list);
  }
  if (m.rank >= 0)
    out += fmt::format("rank:            {} of {}{}\n", m.rank, m.world_size,
                       m.backend.empty() ? "" : fmt::format(" ({})", Printable(m.backend)));
  if (t.diagnostics.empty()) {
    out += "diagnostics:     none\n";
    return out;
  }
  out += "diagnostics:\n";
  for (size_t k = 0; k < kDiagnosticKinds; ++k) {
    auto kind = static_cast<DiagnosticKind>(k);
    if (!t.diagnostics.count(kind)) continue;
    out += fmt::format("  {:<24} {:>8}  {}\n", DiagnosticName(kind), t.diagnostics.count(kind),
                       DiagnosticDescription(kind));
    for (const DiagnosticSample& d : t.diagnostics.samples()) {
      if (d.kind != kind) continue;
      std::string where = DiagnosticWhere(d);
      out += fmt::format("    {}{}{}\n", where, where.empty() ? "" : ": ", Printable(d.detail));
    }
  }
  return out;
}

std::string FormatInfoJson(const std::string& name, const Trace& t, const passes::EventCounts& s,
                           const passes::FunctionEventList& fe,
                           const passes::GraphLaunchSummary& graphs, const InfoStacks& stacks) {
  const TraceMetadata& m = t.metadata;
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.info/1");
  w.Key("input").String(name);
  w.Key("format").String(TraceFormatName(m.format));
  w.Key("producer");
  m.producer.empty() ? w.Null() : w.String(m.producer);
  w.Key("gzip").Bool(m.compressed_bytes != 0);
  w.Key("bytes").Int(static_cast<int64_t>(m.input_bytes));
  w.Key("lost_bytes").Int(static_cast<int64_t>(m.lost_bytes));
  w.Key("events_read").Int(static_cast<int64_t>(m.raw_events));
  w.Key("duration_events").Int(static_cast<int64_t>(t.events.size()));
  w.Key("by_kind").BeginObject();
  for (const auto& [kind, count] : KindsByName(s)) w.Key(kind).Int(static_cast<int64_t>(count));
  w.EndObject();
  w.Key("memory_events").Int(static_cast<int64_t>(t.memory.size()));
  w.Key("flow_events").Int(static_cast<int64_t>(t.flows.size()));
  w.Key("profiler_options").BeginObject();
  for (const auto& [option, set] : HeaderOptions(m)) w.Key(option).Bool(set);
  w.Key("call_stacks").Bool(stacks.sources.call_stacks);
  w.EndObject();
  w.Key("python_function_events").Int(static_cast<int64_t>(stacks.sources.python_functions));
  w.Key("distinct_stacks").Int(static_cast<int64_t>(stacks.distinct));
  w.Key("function_events").Int(static_cast<int64_t>(fe.size()));
  w.Key("duplicates_removed").Int(static_cast<int64_t>(fe.removed_duplicates));
  w.Key("link_rule").String(passes::LinkRuleName(fe.link));
  w.Key("device_activities_linked").Int(static_cast<int64_t>(fe.kernels_attributed));
  w.Key("device_activities_unlinked").Int(static_cast<int64_t>(fe.kernels_unattributed));
  w.Key("external_id_mismatches").Int(static_cast<int64_t>(fe.external_id_mismatches));
  w.Key("trace_records_links").Bool(fe.trace_has_links);
  w.Key("launches_linked").Int(static_cast<int64_t>(fe.launches_linked));
  w.Key("launches_enclosed").Int(static_cast<int64_t>(fe.launches_enclosed));
  w.Key("launches_unattributed").Int(static_cast<int64_t>(fe.launches_unattributed));
  w.Key("id_collisions").Int(static_cast<int64_t>(fe.id_collisions));
  WriteGraphLaunches(&w, t, fe, graphs);
  w.Key("cpu_threads").Int(static_cast<int64_t>(s.cpu_threads));
  w.Key("device_streams").Int(static_cast<int64_t>(s.device_streams));
  w.Key("span_us").Micros(t.events.size() ? s.last_ns - s.first_ns : 0);
  w.Key("devices").BeginArray();
  for (const std::string& d : m.devices) w.String(d);
  w.EndArray();
  w.Key("rank").Int(m.rank);
  w.Key("world_size").Int(m.world_size);
  w.Key("diagnostics").BeginObject();
  for (size_t k = 0; k < kDiagnosticKinds; ++k) {
    auto kind = static_cast<DiagnosticKind>(k);
    if (t.diagnostics.count(kind))
      w.Key(DiagnosticName(kind)).Int(static_cast<int64_t>(t.diagnostics.count(kind)));
  }
  w.EndObject();
  w.EndObject();
  return out;
}

std::string FormatInfoAs(OutputFormat format, const std::string& name, const Trace& trace,
                         const passes::EventCounts& summary,
                         const passes::FunctionEventList& events,
                         const passes::GraphLaunchSummary& graphs, const InfoStacks& stacks) {
  return format == OutputFormat::kJson
             ? FormatInfoJson(name, trace, summary, events, graphs, stacks)
             : FormatInfoText(name, trace, summary, events, graphs, stacks);
}

}  // namespace profana::report
