// profana info: what a trace file holds (format, counts, time span, devices) and what was wrong
// with it (every diagnostic kind with its count and first samples).
#include <algorithm>
#include <map>

#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/passes/function_events.h"
#include "profana/reporters/json_writer.h"

namespace profana::app {
namespace {

struct InfoArgs {
  CommonOptions common;
  std::string file;
};

struct Summary {
  std::map<std::string, uint64_t> by_kind;
  int64_t first_ns = 0, last_ns = 0;
  uint64_t cpu_threads = 0, device_tracks = 0;
};

Summary Summarise(const Trace& t) {
  Summary s;
  const EventTable& e = t.events;
  std::vector<uint8_t> thread_kind(t.threads.size(), 0);  // 1 cpu, 2 device
  for (size_t i = 0; i < e.size(); ++i) {
    ++s.by_kind[ActivityKindName(e.kind[i])];
    if (i == 0 || e.start_ns[i] < s.first_ns) s.first_ns = e.start_ns[i];
    if (i == 0 || e.end_ns[i] > s.last_ns) s.last_ns = e.end_ns[i];
    thread_kind[e.thread[i].value] |= IsDeviceActivity(e.kind[i]) ? 2 : 1;
  }
  for (uint8_t k : thread_kind) {
    s.cpu_threads += (k & 1) != 0;
    s.device_tracks += (k & 2) != 0;
  }
  return s;
}

std::string Text(const std::string& name, const Trace& t) {
  Summary s = Summarise(t);
  const TraceMetadata& m = t.metadata;
  std::string out;
  out += fmt::format("file:            {}\n", name);
  out += fmt::format("format:          {}{}\n", m.format, m.compressed_bytes ? " (gzip)" : "");
  if (!m.container.empty()) out += fmt::format("container:       {}\n", m.container);
  out += fmt::format("bytes:           {}{}\n", m.input_bytes,
                     m.compressed_bytes ? fmt::format(" ({} compressed)", m.compressed_bytes) : "");
  if (m.lost_bytes) out += fmt::format("lost bytes:      {} (truncated input)\n", m.lost_bytes);
  out += fmt::format("events read:     {}\n", m.raw_events);
  out += fmt::format("duration events: {}\n", t.events.size());
  for (const auto& [kind, count] : s.by_kind) out += fmt::format("  {:<20} {}\n", kind, count);
  out += fmt::format("memory events:   {}\n", t.memory.size());
  out += fmt::format("flow events:     {}\n", t.flows.size());
  out += fmt::format("instant events:  {}\n", m.instant_events);
  out += fmt::format("metadata events: {}\n", m.metadata_events);
  out +=
      fmt::format("threads:         {} CPU, {} device streams\n", s.cpu_threads, s.device_tracks);
  out += fmt::format("distinct stacks: {}\n", t.stacks.size() - 1);
  passes::FunctionEventList fe = passes::BuildFunctionEvents(t);
  out += fmt::format("function events: {} ({} duplicate nodes removed)\n", fe.size(),
                     fe.removed_duplicates);
  if (fe.kernels_attributed + fe.kernels_unattributed)
    out += fmt::format("device activity: {} linked to the op that launched it, {} not linked{}\n",
                       fe.kernels_attributed, fe.kernels_unattributed,
                       fe.external_id_mismatches ? fmt::format(" ({} disagree with External id)",
                                                               fe.external_id_mismatches)
                                                 : "");
  if (t.events.size() != 0)
    out += fmt::format("span:            {:.3f} ms\n", (s.last_ns - s.first_ns) / 1e6);
  if (!m.devices.empty()) {
    std::map<std::string, int> devices;
    for (const std::string& d : m.devices) ++devices[d.empty() ? "(unnamed)" : d];
    std::string list;
    for (const auto& [d, n] : devices)
      list += fmt::format("{}{} x{}", list.empty() ? "" : ", ", d, n);
    out += fmt::format("devices:         {}\n", list);
  }
  if (m.rank >= 0)
    out += fmt::format("rank:            {} of {}{}\n", m.rank, m.world_size,
                       m.backend.empty() ? "" : fmt::format(" ({})", m.backend));
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
      std::string where = d.byte_offset == UINT64_MAX ? "" : fmt::format("byte {}", d.byte_offset);
      if (d.event_index >= 0)
        where += fmt::format("{}event #{}", where.empty() ? "" : ", ", d.event_index);
      out += fmt::format("    {}{}{}\n", where, where.empty() ? "" : ": ", d.detail);
    }
  }
  return out;
}

std::string Json(const std::string& name, const Trace& t) {
  Summary s = Summarise(t);
  const TraceMetadata& m = t.metadata;
  std::string out;
  report::JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.info/1");
  w.Key("input").String(name);
  w.Key("format").String(m.format);
  w.Key("gzip").Bool(m.compressed_bytes != 0);
  w.Key("bytes").Int(static_cast<int64_t>(m.input_bytes));
  w.Key("lost_bytes").Int(static_cast<int64_t>(m.lost_bytes));
  w.Key("events_read").Int(static_cast<int64_t>(m.raw_events));
  w.Key("duration_events").Int(static_cast<int64_t>(t.events.size()));
  w.Key("by_kind").BeginObject();
  for (const auto& [kind, count] : s.by_kind) w.Key(kind).Int(static_cast<int64_t>(count));
  w.EndObject();
  w.Key("memory_events").Int(static_cast<int64_t>(t.memory.size()));
  w.Key("flow_events").Int(static_cast<int64_t>(t.flows.size()));
  passes::FunctionEventList fe = passes::BuildFunctionEvents(t);
  w.Key("function_events").Int(static_cast<int64_t>(fe.size()));
  w.Key("duplicates_removed").Int(static_cast<int64_t>(fe.removed_duplicates));
  w.Key("device_activities_linked").Int(static_cast<int64_t>(fe.kernels_attributed));
  w.Key("device_activities_unlinked").Int(static_cast<int64_t>(fe.kernels_unattributed));
  w.Key("external_id_mismatches").Int(static_cast<int64_t>(fe.external_id_mismatches));
  w.Key("cpu_threads").Int(static_cast<int64_t>(s.cpu_threads));
  w.Key("device_streams").Int(static_cast<int64_t>(s.device_tracks));
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

Status RunInfo(const InfoArgs& a, Context& ctx) {
  // info reports the diagnostics itself.
  PROFANA_ASSIGN_OR_RETURN(Trace trace,
                           LoadForCommand(a.file, a.common, ctx, DiagnosticWarning::kSilent));
  std::string name = InputName(a.file);
  return Emit(a.common.format == OutputFormat::kJson ? Json(name, trace) : Text(name, trace),
              a.common, ctx);
}

}  // namespace

void RegisterInfoCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<InfoArgs>();
  CLI::App* cmd = app.add_subcommand(
      "info", "Describe a trace file: format, counts, span, devices, diagnostics");
  cmd->add_option("FILE", args->file, "Trace file; - reads standard input")->required();
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunInfo);
}

}  // namespace profana::app
