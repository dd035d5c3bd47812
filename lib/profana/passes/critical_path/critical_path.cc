#include "profana/passes/critical_path/critical_path.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "fmt/format.h"
#include "profana/model/event_roles.h"
#include "profana/passes/name_matcher.h"

namespace profana::passes {

const char* CpBoundName(CpBound b) {
  switch (b) {
    case CpBound::kCpu:
      return "cpu";
    case CpBound::kKernel:
      return "kernel";
    case CpBound::kCommunication:
      return "communication";
    case CpBound::kKernelGap:
      return "kernel_gap";
    case CpBound::kLaunchDelay:
      return "launch_delay";
    case CpBound::kSync:
      return "sync";
  }
  return "";
}

CpBound BoundOf(const Trace& t, const CpGraph& g, const CpEdge& e) {
  switch (e.type) {
    case CpEdgeType::kKernelKernel:
      return CpBound::kKernelGap;
    case CpEdgeType::kLaunchDelay:
      return CpBound::kLaunchDelay;
    case CpEdgeType::kDependency:
    case CpEdgeType::kSync:
      return CpBound::kSync;
    case CpEdgeType::kOperator:
      break;
  }
  // An operator edge: its event's side (HTA: stream < 0 is cpu_bound).
  EventId ev = e.attributed.valid() ? e.attributed : g.nodes[e.from.value].event;
  if (!IsDeviceActivity(t.events.kind[ev.value])) return CpBound::kCpu;
  return CategoryOf(t, ev.value) == DeviceCategory::kCommunication ? CpBound::kCommunication
                                                                   : CpBound::kKernel;
}

Result<CpWhatIf> ParseWhatIf(const std::string& text) {
  auto bad = [&](const char* why) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("\"{}\": {} (expected KIND:REGEX=FACTOR, KIND one of "
                              "kernel, op, sync, launch; e.g. 'kernel:gemm=0.5')",
                              text, why));
  };
  size_t colon = text.find(':');
  size_t eq = text.rfind('=');
  if (colon == std::string::npos || eq == std::string::npos || eq < colon)
    return bad("no KIND: or =FACTOR");
  CpWhatIf w;
  w.text = text;
  std::string kind = text.substr(0, colon);
  if (kind == "kernel")
    w.target = CpWhatIf::Target::kKernel;
  else if (kind == "op")
    w.target = CpWhatIf::Target::kOp;
  else if (kind == "sync")
    w.target = CpWhatIf::Target::kSync;
  else if (kind == "launch")
    w.target = CpWhatIf::Target::kLaunch;
  else
    return bad("unknown KIND");
  w.pattern = text.substr(colon + 1, eq - colon - 1);
  std::string f = text.substr(eq + 1);
  const char* end = f.data() + f.size();
  auto [p, ec] = std::from_chars(f.data(), end, w.factor);
  if (f.empty() || ec != std::errc() || p != end || !std::isfinite(w.factor) || w.factor < 0)
    return bad("FACTOR is not a number >= 0");
  return w;
}

namespace {

// The windows a request names, in time order.
Result<std::vector<CpWindowResult>> SelectWindows(const Trace& t, const CpRequest& r,
                                                  bool* fallback) {
  const EventTable& ev = t.events;
  std::vector<CpWindowResult> out;
  auto whole = [&] {
    CpWindowResult w;
    w.label = "whole trace";
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (uint32_t e = 0; e < ev.size(); ++e) {
      if (ev.kind[e] == ActivityKind::kTraceSpan) continue;
      lo = std::min(lo, ev.start_ns[e]);
      hi = std::max(hi, ev.end_ns[e]);
    }
    w.window = {lo == INT64_MAX ? 0 : lo, hi == INT64_MIN ? 0 : hi};
    return w;
  };
  if (r.select == CpRequest::Select::kAnnotation) {
    if (r.annotation.empty()) {
      out.push_back(whole());
      return out;
    }
    int64_t k = 0;
    for (uint32_t e = 0; e < ev.size(); ++e) {
      if (ev.kind[e] == ActivityKind::kTraceSpan) continue;
      if (t.str(ev.trace_name[e]).find(r.annotation) == std::string_view::npos) continue;
      if (k++ != r.instance) continue;
      CpWindowResult w;
      w.label = std::string(t.str(ev.trace_name[e]));
      w.window = {ev.start_ns[e], ev.end_ns[e]};
      w.step = StepNumberOf(t, e);
      out.push_back(std::move(w));
      return out;
    }
    return Status(ErrorCode::kInvalidArgument,
                  k == 0
                      ? fmt::format("--annotation \"{}\": no event's name holds it", r.annotation)
                      : fmt::format("--instance {}: \"{}\" has {} instance(s), numbered from 0",
                                    r.instance, r.annotation, k));
  }
  std::map<int64_t, uint32_t> steps;  // the first marker of each N
  for (uint32_t e = 0; e < ev.size(); ++e) {
    int64_t n = StepNumberOf(t, e);
    if (n >= 0) steps.try_emplace(n, e);
  }
  if (r.select == CpRequest::Select::kStep) {
    auto it = steps.find(r.step);
    if (it == steps.end())
      return Status(ErrorCode::kInvalidArgument,
                    steps.empty()
                        ? fmt::format("--step {}: the trace has no ProfilerStep#N", r.step)
                        : fmt::format("--step {}: no ProfilerStep#{} (steps {}-{})", r.step, r.step,
                                      steps.begin()->first, steps.rbegin()->first));
    steps = {*it};
  }
  if (steps.empty()) {
    *fallback = true;
    out.push_back(whole());
    return out;
  }
  for (auto [n, e] : steps) {
    CpWindowResult w;
    w.label = std::string(t.str(ev.trace_name[e]));
    w.step = n;
    w.window = {ev.start_ns[e], ev.end_ns[e]};
    out.push_back(std::move(w));
  }
  std::stable_sort(out.begin(), out.end(), [](const CpWindowResult& a, const CpWindowResult& b) {
    return a.window.start_ns < b.window.start_ns;
  });
  return out;
}

std::unordered_set<uint32_t> PathEvents(const CpGraph& g, const CpPath& p) {
  std::unordered_set<uint32_t> s;
  for (CpNodeId v : p.nodes) s.insert(g.nodes[v.value].event.value);
  return s;
}

// The path's events in path order, each once.
std::vector<EventId> InOrder(const CpGraph& g, const CpPath& p,
                             const std::unordered_set<uint32_t>& keep) {
  std::vector<EventId> out;
  std::unordered_set<uint32_t> seen;
  for (CpNodeId v : p.nodes) {
    uint32_t e = g.nodes[v.value].event.value;
    if (keep.count(e) && seen.insert(e).second) out.push_back(EventId(e));
  }
  return out;
}

// The edges a what-if rule names, with their new weights written into `weights`.
int64_t ApplyWhatIf(const Trace& t, const CpGraph& g, const CpWhatIf& w, NameMatcher* m,
                    std::vector<int64_t>* weights) {
  const EventTable& ev = t.events;
  auto matches = [&](EventId e) { return e.valid() && m->Matches(t, ev.name[e.value]); };
  int64_t changed = 0;
  for (size_t i = 0; i < g.edges.size(); ++i) {
    const CpEdge& e = g.edges[i];
    if ((*weights)[i] == kRemovedEdge) continue;
    EventId head = g.nodes[e.to.value].event, tail = g.nodes[e.from.value].event;
    bool hit = false;
    switch (w.target) {
      case CpWhatIf::Target::kKernel:
        hit = e.type == CpEdgeType::kOperator && e.attributed.valid() &&
              IsDeviceWork(ev.kind[e.attributed.value]) && matches(e.attributed);
        break;
      case CpWhatIf::Target::kOp:
        hit = e.type == CpEdgeType::kOperator && e.attributed.valid() &&
              !IsDeviceActivity(ev.kind[e.attributed.value]) && matches(e.attributed);
        break;
      case CpWhatIf::Target::kLaunch:
        hit = e.type == CpEdgeType::kLaunchDelay && matches(head);
        break;
      case CpWhatIf::Target::kSync:
        hit = e.type == CpEdgeType::kSync && (matches(head) || matches(tail));
        break;
    }
    if (!hit) continue;
    ++changed;
    if (e.type == CpEdgeType::kSync) {
      if (w.factor == 0) (*weights)[i] = kRemovedEdge;
      continue;
    }
    (*weights)[i] =
        static_cast<int64_t>(std::llround(static_cast<double>((*weights)[i]) * w.factor));
  }
  return changed;
}

void Summarize(const Trace& t, const CpRequest& r, CpWindowResult* w) {
  const CpGraph& g = w->graph;
  const CpPath& p = w->path;
  w->graph_nodes = static_cast<int64_t>(g.order.size());
  w->graph_edges = static_cast<int64_t>(g.edges.size());
  for (const CpEdge& e : g.edges) ++w->edges_by_type[static_cast<int>(e.type)];
  w->cyclic = p.cyclic;
  w->length_ns = p.length_ns;
  if (!g.order.empty()) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (CpNodeId v : g.order) {
      lo = std::min(lo, g.nodes[v.value].ts_ns);
      hi = std::max(hi, g.nodes[v.value].ts_ns);
    }
    w->wall_ns = hi - lo;
  }
  // The busiest stream: the union of its device work among the graph's kernels.
  std::map<uint32_t, std::vector<std::pair<int64_t, int64_t>>> by_stream;
  for (CpNodeId v : g.order) {
    const CpNode& n = g.nodes[v.value];
    uint32_t e = n.event.value;
    if (n.is_start && IsDeviceWork(t.events.kind[e]))
      by_stream[t.events.thread[e].value].push_back({t.events.start_ns[e], t.events.end_ns[e]});
  }
  for (auto& [stream, iv] : by_stream) {
    std::sort(iv.begin(), iv.end());
    int64_t busy = 0, cur_s = iv[0].first, cur_e = iv[0].second;
    for (auto [s, e] : iv) {
      if (s > cur_e) {
        busy += cur_e - cur_s;
        cur_s = s;
      }
      cur_e = std::max(cur_e, e);
    }
    busy += cur_e - cur_s;
    if (busy > w->busiest_stream_busy_ns) {
      w->busiest_stream_busy_ns = busy;
      w->busiest_stream = ThreadId(stream);
    }
  }
  std::unordered_map<uint32_t, int64_t> by_event;
  for (CpEdgeId id : p.edges) {
    const CpEdge& e = g.edges[id.value];
    int b = static_cast<int>(BoundOf(t, g, e));
    w->bound_ns[b] += e.weight_ns;
    ++w->bound_edges[b];
    if (e.attributed.valid()) by_event[e.attributed.value] += e.weight_ns;
  }
  w->critical_events = static_cast<int64_t>(PathEvents(g, p).size());
  for (auto [e, ns] : by_event) w->events.push_back({EventId(e), ns});
  std::sort(w->events.begin(), w->events.end(), [](const CpEventShare& a, const CpEventShare& b) {
    return a.ns != b.ns ? a.ns > b.ns : a.event < b.event;
  });
  if (w->events.size() > r.top_events) w->events.resize(r.top_events);
}

}  // namespace

Result<CriticalPathResult> ComputeCriticalPaths(const Trace& trace, const SourceEvents* source,
                                                const CpRequest& request) {
  CriticalPathResult out;
  out.event_syncs_read = source != nullptr && !source->wait_record.empty();
  NameMatcher data_load;
  PROFANA_RETURN_IF_ERROR(
      data_load.Compile(request.data_load, "--data-load", trace.strings.size()));
  std::vector<NameMatcher> rules(request.what_if.size());
  for (size_t i = 0; i < rules.size(); ++i)
    PROFANA_RETURN_IF_ERROR(
        rules[i].Compile(request.what_if[i].pattern, "--what-if", trace.strings.size()));
  PROFANA_ASSIGN_OR_RETURN(out.windows, SelectWindows(trace, request, &out.whole_trace_fallback));
  LaunchIndex launches(trace.events);
  CpGraphInputs in{&trace, &launches, source, &data_load,
                   request.causal_launch_edges || !request.what_if.empty()};
  for (CpWindowResult& w : out.windows) {
    w.graph = BuildCriticalPathGraph(in, w.window);
    w.path = SolveLongestPath(w.graph);
    Summarize(trace, request, &w);
    if (request.what_if.empty() || w.path.cyclic) continue;
    std::vector<int64_t> weights(w.graph.edges.size());
    for (size_t i = 0; i < weights.size(); ++i) weights[i] = w.graph.edges[i].weight_ns;
    std::unordered_set<uint32_t> before = PathEvents(w.graph, w.path);
    // Rules apply one after another, each with the ones before it: the last line is all of them.
    for (size_t i = 0; i < request.what_if.size(); ++i) {
      CpWhatIfResult res;
      res.rule = request.what_if[i].text;
      res.edges_changed = ApplyWhatIf(trace, w.graph, request.what_if[i], &rules[i], &weights);
      CpPath p = SolveLongestPath(w.graph, weights);
      res.length_ns = p.length_ns;
      std::unordered_set<uint32_t> after = PathEvents(w.graph, p), added, gone;
      for (uint32_t e : after)
        if (!before.count(e)) added.insert(e);
      for (uint32_t e : before)
        if (!after.count(e)) gone.insert(e);
      res.now_critical = InOrder(w.graph, p, added);
      res.left_path = InOrder(w.graph, w.path, gone);
      w.what_if.push_back(std::move(res));
    }
  }
  return out;
}

}  // namespace profana::passes
