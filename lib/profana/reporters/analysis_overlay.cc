#include "profana/reporters/analysis_overlay.h"

#include <algorithm>

#include "fmt/format.h"
#include "profana/base/json_writer.h"
#include "profana/reporters/critical_path_overlay.h"

namespace profana::report {
namespace {

// Track ids under kOverlayPid: the steps, then per device its idle gaps; counters name their own
// series.
constexpr int64_t kStepsTid = 1;
constexpr int64_t kAdviceTid = 2;
constexpr int64_t kIdleTidBase = 100;

class Tracks {
 public:
  explicit Tracks(std::string* out) : out_(out) {}

  JsonWriter& Begin(std::string_view ph, int64_t tid) {
    *out_ += ',';
    w_.BeginObject();
    w_.Key("ph").String(ph);
    w_.Key("pid").Int(kOverlayPid);
    w_.Key("tid").Int(tid);
    return w_;
  }

  void Name(std::string_view what, int64_t tid, std::string_view name) {
    Begin("M", tid).Key("name").String(what);
    w_.Key("args").BeginObject().Key("name").String(name).EndObject();
    w_.EndObject();
  }

  void Slice(int64_t tid, std::string_view name, int64_t start_ns, int64_t end_ns,
             std::string_view cat) {
    Begin("X", tid).Key("name").String(name);
    w_.Key("cat").String(cat);
    w_.Key("ts").Micros(start_ns).Key("dur").Micros(end_ns - start_ns);
    w_.EndObject();
  }

  // A thread-scoped instant with the finding's rule, saving and evidence as its args.
  void Finding(int64_t tid, const job::Finding& f, int64_t ts_ns) {
    Begin("i", tid).Key("name").String(f.rule);
    w_.Key("cat").String("profana_advice");
    w_.Key("s").String("t");
    w_.Key("ts").Micros(ts_ns);
    w_.Key("args").BeginObject();
    w_.Key("rule").String(f.rule);
    w_.Key("saving_us").Micros(f.saving_ns);
    w_.Key("count").Int(f.count);
    w_.Key("evidence").String(f.evidence);
    w_.EndObject();
    w_.EndObject();
  }

  void Counter(std::string_view name, int64_t ts_ns, std::string_view key, int64_t value) {
    Begin("C", 0).Key("name").String(name);
    w_.Key("ts").Micros(ts_ns);
    w_.Key("args").BeginObject().Key(key).Int(value).EndObject();
    w_.EndObject();
  }

 private:
  std::string* out_;
  JsonWriter w_{out_, JsonLayout::kCompact};
};

std::string OverlayStreamName(const Trace& t, ThreadId stream) {
  if (!stream.valid() || stream.value >= t.threads.size()) return "?";
  const ThreadInfo& th = t.threads[stream.value];
  return th.tid_text.value ? std::string(t.str(th.tid_text)) : std::to_string(th.tid);
}

}  // namespace

std::string WriteAnalysisTracks(const Trace& trace, const job::TraceAnalyses& a,
                                const std::vector<job::Finding>& findings,
                                AnalysisTrackCounts* counts) {
  std::string out;
  Tracks tracks(&out);
  AnalysisTrackCounts n;
  tracks.Name("process_name", 0, "profana analyses");
  tracks.Name("thread_name", kStepsTid, "steps");
  for (const job::StepRow& s : a.steps) {
    tracks.Slice(kStepsTid, fmt::format("step {}", s.step), s.start_ns, s.start_ns + s.wall_ns,
                 "profana_step");
    ++n.steps;
  }
  // A finding is drawn where it was first seen: its first step's start, else the trace's start.
  int64_t trace_start = 0;
  for (size_t e = 0; e < trace.events.size(); ++e)
    trace_start =
        e == 0 ? trace.events.start_ns[e] : std::min(trace_start, trace.events.start_ns[e]);
  if (!findings.empty()) tracks.Name("thread_name", kAdviceTid, "advice");
  for (const job::Finding& f : findings) {
    int64_t ts = trace_start;
    if (!f.steps.empty())
      for (const job::StepRow& s : a.steps)
        if (s.step == f.steps.front()) ts = s.start_ns;
    tracks.Finding(kAdviceTid, f, ts);
    ++n.findings;
  }
  std::vector<int32_t> named;
  for (const passes::Gap& g : a.idle.longest) {
    int64_t tid = kIdleTidBase + g.device;
    if (std::find(named.begin(), named.end(), g.device) == named.end()) {
      tracks.Name("thread_name", tid, fmt::format("GPU {} idle", g.device));
      named.push_back(g.device);
    }
    tracks.Slice(tid, passes::GapKindName(g.kind), g.start_ns, g.end_ns, "profana_idle");
    ++n.idle_gaps;
  }
  for (const passes::StreamQueue& q : a.queues) {
    std::string name =
        fmt::format("queue depth GPU {} stream {}", q.device, OverlayStreamName(trace, q.stream));
    for (const passes::QueueSample& s : q.series) {
      tracks.Counter(name, s.ts_ns, "depth", s.length);
      ++n.queue_points;
    }
  }
  const MemoryTable& m = trace.memory;
  for (uint32_t i = 0; i < m.size(); ++i) {
    std::string device = fmt::format("memory device {}.{}", m.device_type[i], m.device_id[i]);
    if (m.total_allocated[i] != kNoId)
      tracks.Counter(device + " allocated", m.ts_ns[i], "bytes", m.total_allocated[i]);
    if (m.total_reserved[i] != kNoId)
      tracks.Counter(device + " reserved", m.ts_ns[i], "bytes", m.total_reserved[i]);
    ++n.memory_points;
  }
  if (counts) *counts = n;
  return out;
}

std::string WriteAnnotatedTrace(std::string_view document, const SourceEvents& source,
                                const Trace& trace, const passes::FunctionEventList& events,
                                AnalysisTrackCounts* counts) {
  job::TraceAnalyses analyses = job::AnalyseTrace(trace, events);
  job::AdviceContext advice =
      job::MakeAdviceContext(trace, events, *analyses.launches, &source, job::AdviceOptions{});
  std::vector<job::Finding> findings = job::AdviseTrace(advice, trace.metadata.rank);
  // The paths of `critical-path`'s default request (the advice context keeps only their
  // lengths); a trace whose paths cannot be found gets its tracks without marks.
  Result<passes::CriticalPathResult> paths =
      passes::ComputeCriticalPaths(trace, &source, passes::CpRequest{});
  std::vector<passes::CpWindowResult> none;
  return WriteCriticalPathOverlay(document, source, trace, paths.ok() ? paths->windows : none,
                                  /*all_edges=*/false, nullptr,
                                  WriteAnalysisTracks(trace, analyses, findings, counts));
}

}  // namespace profana::report
