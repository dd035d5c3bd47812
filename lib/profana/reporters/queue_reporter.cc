#include "profana/reporters/queue_reporter.h"

#include "fmt/format.h"
#include "profana/base/json_writer.h"
#include "profana/base/terminal_text.h"
#include "profana/reporters/csv_field.h"
#include "profana/reporters/gpu_evaluation_json.h"
#include "profana/reporters/number_format.h"
#include "profana/reporters/track_labels.h"

namespace profana::report {
namespace {

double Us(int64_t ns) { return ns / 1000.0; }

}  // namespace

std::string FormatQueueText(TraceNames t, const passes::GpuEvaluation& g,
                            const std::vector<passes::StreamQueue>& streams,
                            passes::QueueModel model, int32_t limit) {
  std::string out;
  double sum = 0;
  for (const passes::QueuePoint& p : g.queue) sum += p.depth;
  out += fmt::format(
      "CUDA queue depth (PyTorch's BasicEvaluation: one queue, launches and kernels)\n");
  out += fmt::format("  launches {}, kernels {}, launches without a kernel {}\n", g.launches,
                     g.kernels, g.launches_without_kernel);
  // One queue over every stream: its maximum differs from the per-stream maxima below.
  out +=
      fmt::format("  points {}, max depth of the one queue {}, mean depth {:.2f}\n", g.queue.size(),
                  passes::MaxQueueDepth(g), g.queue.empty() ? 0.0 : sum / g.queue.size());
  out += fmt::format("  time with an empty queue {} in {} intervals\n\n",
                     FormatTime(Us(passes::IdleNs(g))), g.idle.size());
  out += model == passes::QueueModel::kHta
             ? "Queue length per stream (HTA: operations launched and not started; mean over "
               "the change points)\n"
             : "Queue length per stream (operations launched and not finished)\n";
  out += fmt::format("  {:>6}  {:<12}  {:>8}  {:>8}  {:>12}  {:>12}\n", "device", "stream", "max",
                     "mean", "time at max", "blocked");
  for (const passes::StreamQueue& q : streams)
    out += fmt::format("  {:>6}  {:<12}  {:>8}  {:>8.2f}  {:>12}  {:>12}\n", q.device,
                       Printable(StreamName(t, q.stream)), q.max_length, q.mean_length,
                       FormatTime(Us(q.time_at_max_ns)), FormatTime(Us(q.blocked_ns)));
  if (limit != passes::kCudaLaunchQueueLimit)
    out += fmt::format("  blocked: time with {} or more operations outstanding\n", limit);
  return out;
}

std::string FormatQueueCsv(TraceNames t, int64_t origin_ns, const passes::GpuEvaluation& g,
                           const std::vector<passes::StreamQueue>& streams) {
  std::string out = "scope,device,stream,ts_us,value\n";
  std::string ts;
  for (const passes::QueuePoint& p : g.queue) {
    ts.clear();
    JsonWriter(&ts, JsonLayout::kCompact).Micros(p.start_ns - origin_ns);
    out += fmt::format("global,,,{},{}\n", ts, p.depth);
  }
  for (const passes::StreamQueue& q : streams) {
    for (const passes::QueueSample& s : q.series) {
      ts.clear();
      JsonWriter(&ts, JsonLayout::kCompact).Micros(s.ts_ns - origin_ns);
      out += fmt::format("stream,{},{},{},{}\n", q.device, CsvField(StreamName(t, q.stream)), ts,
                         s.length);
    }
  }
  return out;
}

std::string FormatQueueJson(const std::string& input, TraceNames t, int64_t origin_ns,
                            const passes::GpuEvaluation& g,
                            const std::vector<passes::StreamQueue>& streams,
                            passes::QueueModel model, int32_t limit) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.queue/1");
  w.Key("input").String(input);
  WriteLaunchCounts(w, g);
  w.Key("global").BeginArray();
  for (const passes::QueuePoint& p : g.queue) {
    w.BeginObject();
    w.Key("ts_us").Micros(p.start_ns - origin_ns);
    w.Key("depth").Int(p.depth);
    w.Key("launch").Bool(p.is_launch);
    w.EndObject();
  }
  w.EndArray();
  w.Key("idle");
  WriteIntervals(w, g.idle, origin_ns);
  w.Key("stream_model").String(model == passes::QueueModel::kHta ? "hta" : "profana");
  w.Key("blocked_at").Int(limit);
  w.Key("streams").BeginArray();
  for (const passes::StreamQueue& q : streams) {
    w.BeginObject();
    w.Key("device").Int(q.device);
    w.Key("stream").String(StreamName(t, q.stream));
    w.Key("max").Int(q.max_length);
    w.Key("mean").Double(q.mean_length);
    w.Key("time_at_max_us").Micros(q.time_at_max_ns);
    w.Key("blocked_us").Micros(q.blocked_ns);
    w.Key("series").BeginArray();
    for (const passes::QueueSample& s : q.series) {
      w.BeginArray();
      w.Micros(s.ts_ns - origin_ns);
      w.Int(s.length);
      w.EndArray();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out;
}

std::string FormatQueueAs(OutputFormat format, const std::string& input, TraceNames names,
                          int64_t origin_ns, const passes::GpuEvaluation& evaluation,
                          const std::vector<passes::StreamQueue>& streams, passes::QueueModel model,
                          int32_t limit) {
  switch (format) {
    case OutputFormat::kJson:
      return FormatQueueJson(input, names, origin_ns, evaluation, streams, model, limit);
    case OutputFormat::kCsv:
      return FormatQueueCsv(names, origin_ns, evaluation, streams);
    default:
      return FormatQueueText(names, evaluation, streams, model, limit);
  }
}

}  // namespace profana::report
