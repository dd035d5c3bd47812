#include "profana/reporters/critical_path_overlay.h"

#include <algorithm>
#include <unordered_set>

#include "profana/base/json_writer.h"

namespace profana::report {
namespace {

using passes::CpEdge;
using passes::CpEdgeType;
using passes::CpGraph;
using passes::CpNode;

bool DrawnByDefault(CpEdgeType t) {
  return t == CpEdgeType::kDependency || t == CpEdgeType::kLaunchDelay || t == CpEdgeType::kSync;
}

void WriteThreadField(JsonWriter& w, const char* key, int64_t number, StringId text, TraceNames t) {
  w.Key(key);
  if (text.value != 0)
    w.String(t.str(text));
  else
    w.Int(number);
}

// One end of a flow arrow, at its node (HTA's get_flow_event): an end node of device work sits
// 1 us (or its whole length, if shorter) before the work's end, so the arrow lands on it.
void WriteFlow(JsonWriter& w, TraceNames t, const CpGraph& g, const CpEdge& e, bool start,
               int64_t id) {
  const CpNode& n = g.nodes[(start ? e.from : e.to).value];
  uint32_t ev = n.event.value;
  int64_t ts = n.ts_ns;
  if (!n.is_start && IsDeviceActivity(t.events.kind[ev]))
    ts -= std::min<int64_t>(1000, t.events.end_ns[ev] - t.events.start_ns[ev]);
  const ThreadInfo& th = t.threads[t.events.thread[ev].value];
  w.BeginObject();
  w.Key("ph").String(start ? "s" : "f");
  w.Key("id").Int(id);
  WriteThreadField(w, "pid", th.pid, th.pid_text, t);
  WriteThreadField(w, "tid", th.tid, th.tid_text, t);
  w.Key("ts").Micros(ts);
  w.Key("cat").String("critical_path");
  w.Key("name").String("critical_path");
  if (!start) w.Key("bp").String("e");
  w.Key("args").BeginObject();
  w.Key("weight").Micros(e.weight_ns);
  w.Key("critical").Bool(true);
  w.Key("type").String(passes::CpEdgeTypeName(e.type));
  w.EndObject();
  w.EndObject();
}

}  // namespace

std::string WriteCriticalPathOverlay(std::string_view doc, const SourceEvents& source,
                                     TraceNames names,
                                     const std::vector<passes::CpWindowResult>& windows,
                                     bool all_edges, OverlayCounts* counts,
                                     std::string_view extra_events) {
  std::unordered_set<uint32_t> critical;  // elements
  std::string flows;
  int64_t id = kOverlayFirstFlowId, pairs = 0;
  for (const passes::CpWindowResult& win : windows) {
    for (passes::CpNodeId v : win.path.nodes) {
      uint32_t e = win.graph.nodes[v.value].event.value;
      if (e < source.element_of.size() && source.element_of[e] != UINT32_MAX)
        critical.insert(source.element_of[e]);
    }
    for (passes::CpEdgeId eid : win.path.edges) {
      const CpEdge& e = win.graph.edges[eid.value];
      if (!all_edges && !DrawnByDefault(e.type)) continue;
      for (bool start : {true, false}) {
        flows += ',';
        JsonWriter w(&flows, JsonLayout::kCompact);
        WriteFlow(w, names, win.graph, e, start, id);
      }
      ++id;
      ++pairs;
    }
  }
  flows += extra_events;
  std::string out;
  out.reserve(doc.size() + critical.size() * 16 + flows.size() + 64);
  size_t at = 0;
  for (uint32_t k = 0; k < source.elements.size(); ++k) {
    if (!critical.count(k)) continue;
    const SourceEvent& el = source.elements[k];
    if (el.args_open) {
      out.append(doc.substr(at, el.args_open - at));
      out += el.args_empty ? "\"critical\": 1" : "\"critical\": 1, ";
      at = el.args_open;
    } else {
      out.append(doc.substr(at, el.begin + 1 - at));
      out += "\"args\": {\"critical\": 1}, ";
      at = el.begin + 1;
    }
  }
  // The flows go after the last event, before the array closes.
  size_t last_end = source.elements.empty() ? source.events_close : source.elements.back().end;
  out.append(doc.substr(at, last_end - at));
  if (source.elements.empty() && !flows.empty()) flows.erase(0, 1);
  out += flows;
  out.append(doc.substr(last_end));
  if (counts) {
    counts->marked_events = static_cast<int64_t>(critical.size());
    counts->flow_pairs = pairs;
  }
  return out;
}

}  // namespace profana::report
