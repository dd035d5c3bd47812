#include "profana/reporters/analysis_overlay.h"

#include <string_view>

#include "fmt/format.h"
#include "profana/reporters/json_writer.h"

namespace profana::report {
namespace {

// Track ids under kOverlayPid: the steps, then per device its idle gaps; counters name their own
// series.
constexpr int64_t kStepsTid = 1;
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

  void Counter(std::string_view name, int64_t ts_ns, std::string_view key, int64_t value) {
    Begin("C", 0).Key("name").String(name);
    w_.Key("ts").Micros(ts_ns);
    w_.Key("args").BeginObject().Key(key).Int(value).EndObject();
    w_.EndObject();
  }

 private:
  std::string* out_;
  JsonWriter w_{out_, /*pretty=*/false};
};

std::string StreamName(const Trace& t, ThreadId stream) {
  if (!stream.valid() || stream.value >= t.threads.size()) return "?";
  const ThreadInfo& th = t.threads[stream.value];
  return th.tid_text.value ? std::string(t.str(th.tid_text)) : std::to_string(th.tid);
}

}  // namespace

std::string WriteAnalysisTracks(const Trace& trace, const job::TraceAnalyses& a,
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
        fmt::format("queue depth GPU {} stream {}", q.device, StreamName(trace, q.stream));
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

}  // namespace profana::report
