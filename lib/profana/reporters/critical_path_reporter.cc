#include "profana/reporters/critical_path_reporter.h"

#include <algorithm>
#include <map>

#include "fmt/format.h"
#include "profana/base/json_writer.h"
#include "profana/base/terminal_text.h"
#include "profana/reporters/grid.h"
#include "profana/reporters/number_format.h"
#include "profana/reporters/table_reporter.h"
#include "profana/reporters/track_labels.h"

namespace profana::report {
namespace {

using passes::CpBound;
using passes::kCpBounds;

std::string Where(TraceNames t, EventId e) {
  if (IsDeviceActivity(t.events.kind[e.value])) return StreamLabel(t, e.value);
  return "thread " + TidText(t, t.threads[t.events.thread[e.value].value]);
}

std::string Name(TraceNames t, EventId e) {
  return std::string(t.str(t.events.trace_name[e.value]));
}

// A name for the text and markdown reports: shown as terminal text, cut to `width` code points.
std::string Cut(const std::string& s, size_t width = 70) {
  return TruncateName(Printable(s), width);
}

std::string PathShare(int64_t part, int64_t whole) {
  return whole > 0 ? fmt::format("{:.1f}%",
                                 100.0 * static_cast<double>(part) / static_cast<double>(whole))
                   : "-";
}

std::string Names(const std::vector<std::string>& v, size_t max = 6) {
  std::string out;
  for (size_t i = 0; i < v.size() && i < max; ++i) out += (i ? ", " : "") + Cut(v[i], 50);
  if (v.size() > max) out += fmt::format(" and {} more", v.size() - max);
  return out.empty() ? "none" : out;
}

std::string RankTitle(const CpRank& r) {
  std::string input = Printable(r.input);
  return r.rank >= 0 ? fmt::format("{} (rank {})", input, r.rank) : input;
}

Grid BoundGrid(const CpWindowRow& w) {
  Grid g;
  g.headers = {"bound by", "time", "share", "edges"};
  g.left = {true, false, false, false};
  for (int b = 0; b < kCpBounds; ++b)
    g.AddRow({passes::CpBoundName(static_cast<CpBound>(b)), FormatTimeNs(w.bound_ns[b]),
              PathShare(w.bound_ns[b], w.length_ns), fmt::format("{}", w.bound_edges[b])});
  return g;
}

Grid EventGrid(const CpWindowRow& w) {
  Grid g;
  g.headers = {"time", "share", "where", "event"};
  g.left = {false, false, true, true};
  for (const CpEventRow& e : w.events)
    g.AddRow({FormatTimeNs(e.ns), PathShare(e.ns, w.length_ns), e.where, Cut(e.name)});
  return g;
}

std::string WhatIfLine(const CpWindowRow& w, const CpWhatIfRow& x) {
  int64_t d = x.length_ns - w.length_ns;
  return fmt::format(
      "{}: {} edges changed, predicted {} ({}{}, {}); now critical: {}; off the "
      "path: {}",
      x.rule, x.edges_changed, FormatTimeNs(x.length_ns), d < 0 ? "-" : "+",
      FormatTimeNs(d < 0 ? -d : d), PathShare(d, w.length_ns), Names(x.now_critical),
      Names(x.left_path));
}

// The slowest rank of each step, for a job.
std::map<int64_t, std::pair<int64_t, int64_t>> SlowestRanks(const std::vector<CpRank>& ranks) {
  std::map<int64_t, std::pair<int64_t, int64_t>> out;  // step -> (rank, length)
  for (const CpRank& r : ranks)
    for (const CpWindowRow& w : r.windows) {
      if (w.step < 0) continue;
      auto [it, fresh] = out.try_emplace(w.step, r.rank, w.length_ns);
      if (!fresh && w.length_ns > it->second.second) it->second = {r.rank, w.length_ns};
    }
  return out;
}

}  // namespace

CpRank MakeCpRank(std::string input, TraceNames t, const TraceMetadata& metadata,
                  const passes::CriticalPathResult& r) {
  CpRank out;
  out.input = std::move(input);
  out.rank = metadata.rank;
  out.whole_trace_fallback = r.whole_trace_fallback;
  out.event_syncs_read = r.event_syncs_read;
  for (const passes::CpWindowResult& w : r.windows) {
    CpWindowRow row;
    row.label = w.label;
    row.step = w.step;
    row.start_ns = w.window.start_ns - metadata.origin.ns;
    row.end_ns = w.window.end_ns - metadata.origin.ns;
    row.wall_ns = w.wall_ns;
    row.length_ns = w.length_ns;
    std::copy(std::begin(w.bound_ns), std::end(w.bound_ns), row.bound_ns);
    std::copy(std::begin(w.bound_edges), std::end(w.bound_edges), row.bound_edges);
    row.graph_nodes = w.graph_nodes;
    row.graph_edges = w.graph_edges;
    row.critical_events = w.critical_events;
    row.critical_edges = static_cast<int64_t>(w.path.edges.size());
    if (w.busiest_stream.valid()) {
      row.busiest_stream = StreamName(t, w.busiest_stream);
      const ThreadInfo& th = t.threads[w.busiest_stream.value];
      row.busiest_stream = fmt::format("device {} {}", th.pid, row.busiest_stream);
    }
    row.busiest_stream_busy_ns = w.busiest_stream_busy_ns;
    row.cyclic = w.cyclic;
    row.negative_weights = w.graph.negative_weights;
    for (const passes::CpEventShare& e : w.events)
      row.events.push_back({Name(t, e.event), Where(t, e.event), e.ns});
    for (const passes::CpWhatIfResult& x : w.what_if) {
      CpWhatIfRow wr{x.rule, x.edges_changed, x.length_ns, {}, {}};
      for (EventId e : x.now_critical) wr.now_critical.push_back(Name(t, e));
      for (EventId e : x.left_path) wr.left_path.push_back(Name(t, e));
      row.what_if.push_back(std::move(wr));
    }
    out.windows.push_back(std::move(row));
  }
  return out;
}

std::string FormatCriticalPathText(const std::vector<CpRank>& ranks) {
  std::string out;
  for (const CpRank& r : ranks) {
    for (const CpWindowRow& w : r.windows) {
      if (!out.empty()) out += '\n';
      out += fmt::format("Critical path of {} in {}\n", Printable(w.label), RankTitle(r));
      if (w.cyclic) {
        out += "  the graph has a cycle (the trace's times contradict each other): no path\n";
        continue;
      }
      out += fmt::format(
          "  path {} over a span of {} ({}); {} events and {} edges on it, of a "
          "graph of {} nodes and {} edges\n",
          FormatTimeNs(w.length_ns), FormatTimeNs(w.wall_ns), PathShare(w.length_ns, w.wall_ns),
          w.critical_events, w.critical_edges, w.graph_nodes, w.graph_edges);
      if (!w.busiest_stream.empty())
        out += fmt::format("  busiest stream: {}, {} busy\n", Printable(w.busiest_stream),
                           FormatTimeNs(w.busiest_stream_busy_ns));
      out += '\n' + BoundGrid(w).Text();
      if (!w.events.empty())
        out += fmt::format("\nTop {} events on the path\n", w.events.size()) + EventGrid(w).Text();
      if (!w.what_if.empty()) {
        out += "\nWhat if\n";
        for (const CpWhatIfRow& x : w.what_if) out += "  " + WhatIfLine(w, x) + '\n';
      }
      for (auto [rank, ns] : w.comm_wait_by_rank)
        out += fmt::format("  communication on the path waiting for rank {} (arrived last): {}\n",
                           rank, FormatTimeNs(ns));
    }
    if (r.whole_trace_fallback)
      out += "note: the trace has no ProfilerStep#N: the whole trace is one window\n";
  }
  if (ranks.size() > 1) {
    out += "\nSlowest rank per step (critical path)\n";
    for (auto [step, rl] : SlowestRanks(ranks))
      out += fmt::format("  step {:>6}  rank {:>4}  {}\n", step, rl.first, FormatTimeNs(rl.second));
  }
  return out;
}

std::string FormatCriticalPathMarkdown(const std::vector<CpRank>& ranks) {
  std::string out;
  for (const CpRank& r : ranks)
    for (const CpWindowRow& w : r.windows) {
      out += fmt::format("### Critical path of {} in {}\n\n", Printable(w.label), RankTitle(r));
      out += fmt::format("Path **{}** over a span of {} ({}); {} events and {} edges on it.\n\n",
                         FormatTimeNs(w.length_ns), FormatTimeNs(w.wall_ns),
                         PathShare(w.length_ns, w.wall_ns), w.critical_events, w.critical_edges);
      out += BoundGrid(w).Markdown() + '\n';
      if (!w.events.empty()) out += EventGrid(w).Markdown() + '\n';
      for (const CpWhatIfRow& x : w.what_if) out += "- " + WhatIfLine(w, x) + '\n';
      if (!w.what_if.empty()) out += '\n';
    }
  return out;
}

std::string FormatCriticalPathCsv(const std::vector<CpRank>& ranks) {
  Grid g;
  g.headers = {"input", "rank", "window", "step", "wall_us", "length_us"};
  for (int b = 0; b < kCpBounds; ++b)
    g.headers.push_back(fmt::format("{}_us", passes::CpBoundName(static_cast<CpBound>(b))));
  for (const char* h :
       {"critical_events", "critical_edges", "busiest_stream", "busiest_stream_busy_us"})
    g.headers.push_back(h);
  for (const CpRank& r : ranks)
    for (const CpWindowRow& w : r.windows) {
      std::vector<std::string> row = {r.input,
                                      fmt::format("{}", r.rank),
                                      w.label,
                                      fmt::format("{}", w.step),
                                      MicrosText(w.wall_ns),
                                      MicrosText(w.length_ns)};
      for (int b = 0; b < kCpBounds; ++b) row.push_back(MicrosText(w.bound_ns[b]));
      row.push_back(fmt::format("{}", w.critical_events));
      row.push_back(fmt::format("{}", w.critical_edges));
      row.push_back(w.busiest_stream);
      row.push_back(MicrosText(w.busiest_stream_busy_ns));
      g.AddRow(std::move(row));
    }
  return g.Csv();
}

std::string FormatCriticalPathJson(const std::vector<CpRank>& ranks) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.critical-path/1");
  w.Key("unit").String("us");
  w.Key("ranks").BeginArray();
  for (const CpRank& r : ranks) {
    w.BeginObject();
    w.Key("input").String(r.input);
    w.Key("rank").Int(r.rank);
    w.Key("whole_trace").Bool(r.whole_trace_fallback);
    w.Key("event_syncs_read").Bool(r.event_syncs_read);
    w.Key("windows").BeginArray();
    for (const CpWindowRow& x : r.windows) {
      w.BeginObject();
      w.Key("label").String(x.label);
      if (x.step >= 0)
        w.Key("step").Int(x.step);
      else
        w.Key("step").Null();
      w.Key("start").Micros(x.start_ns);
      w.Key("end").Micros(x.end_ns);
      w.Key("wall").Micros(x.wall_ns);
      w.Key("length").Micros(x.length_ns);
      w.Key("cyclic").Bool(x.cyclic);
      w.Key("negative_weights").Int(x.negative_weights);
      w.Key("graph").BeginObject();
      w.Key("nodes").Int(x.graph_nodes);
      w.Key("edges").Int(x.graph_edges);
      w.EndObject();
      w.Key("critical_events").Int(x.critical_events);
      w.Key("critical_edges").Int(x.critical_edges);
      w.Key("busiest_stream");
      if (x.busiest_stream.empty())
        w.Null();
      else
        w.String(x.busiest_stream);
      w.Key("busiest_stream_busy").Micros(x.busiest_stream_busy_ns);
      w.Key("bound_by").BeginObject();
      for (int b = 0; b < kCpBounds; ++b) {
        w.Key(passes::CpBoundName(static_cast<CpBound>(b))).BeginObject();
        w.Key("time").Micros(x.bound_ns[b]);
        w.Key("edges").Int(x.bound_edges[b]);
        w.EndObject();
      }
      w.EndObject();
      w.Key("events").BeginArray();
      for (const CpEventRow& e : x.events) {
        w.BeginObject();
        w.Key("name").String(e.name);
        w.Key("where").String(e.where);
        w.Key("time").Micros(e.ns);
        w.EndObject();
      }
      w.EndArray();
      w.Key("what_if").BeginArray();
      for (const CpWhatIfRow& y : x.what_if) {
        w.BeginObject();
        w.Key("rule").String(y.rule);
        w.Key("edges_changed").Int(y.edges_changed);
        w.Key("length").Micros(y.length_ns);
        w.Key("now_critical").BeginArray();
        for (const std::string& s : y.now_critical) w.String(s);
        w.EndArray();
        w.Key("off_path").BeginArray();
        for (const std::string& s : y.left_path) w.String(s);
        w.EndArray();
        w.EndObject();
      }
      w.EndArray();
      w.Key("comm_wait_by_rank").BeginArray();
      for (auto [rank, ns] : x.comm_wait_by_rank) {
        w.BeginObject();
        w.Key("rank").Int(rank);
        w.Key("time").Micros(ns);
        w.EndObject();
      }
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("slowest_rank_per_step").BeginArray();
  if (ranks.size() > 1)
    for (auto [step, rl] : SlowestRanks(ranks)) {
      w.BeginObject();
      w.Key("step").Int(step);
      w.Key("rank").Int(rl.first);
      w.Key("length").Micros(rl.second);
      w.EndObject();
    }
  w.EndArray();
  w.EndObject();
  out += '\n';
  return out;
}

std::string FormatCriticalPathAs(OutputFormat format, const std::vector<CpRank>& ranks) {
  switch (format) {
    case OutputFormat::kJson:
      return FormatCriticalPathJson(ranks);
    case OutputFormat::kCsv:
      return FormatCriticalPathCsv(ranks);
    case OutputFormat::kMarkdown:
      return FormatCriticalPathMarkdown(ranks);
    default:
      return FormatCriticalPathText(ranks);
  }
}

}  // namespace profana::report
