// profana queue and profana idle: where the GPU starves. queue: the CUDA queue depth over time,
// globally as PyTorch computes it and per device and stream as HTA does. idle: GPU idle time per
// device and stream, split into host wait / kernel wait / other, with the longest gaps.
#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/passes/function_events.h"
#include "profana/passes/gpu_evaluation.h"
#include "profana/passes/gpu_streams.h"
#include "profana/reporters/json_writer.h"
#include "profana/reporters/number_format.h"

namespace profana::app {
namespace {

using report::FormatTime;

double Us(int64_t ns) { return ns / 1000.0; }

std::string StreamName(const Trace& t, ThreadId id) {
  if (id.value == UINT32_MAX) return "all";
  const ThreadInfo& info = t.threads[id.value];
  return info.tid_text.value ? std::string(t.str(info.tid_text))
                             : fmt::format("stream {}", info.tid);
}

std::string Percent(int64_t part, int64_t whole) {
  return whole > 0 ? fmt::format("{:.2f}%", 100.0 * part / whole) : "-";
}

// ---- queue ----

struct QueueArgs {
  CommonOptions common;
  std::string file;
};

std::string QueueText(const Trace& t, const passes::GpuEvaluation& g,
                      const std::vector<passes::StreamQueue>& streams) {
  std::string out;
  int32_t max_depth = 0;
  double sum = 0;
  for (const passes::QueuePoint& p : g.queue) {
    max_depth = std::max(max_depth, p.depth);
    sum += p.depth;
  }
  out += fmt::format(
      "CUDA queue depth (PyTorch's BasicEvaluation: one queue, launches and kernels)\n");
  out += fmt::format("  launches {}, kernels {}, launches without a kernel {}\n", g.launches,
                     g.kernels, g.launches_without_kernel);
  out += fmt::format("  points {}, max depth {}, mean depth {:.2f}\n", g.queue.size(), max_depth,
                     g.queue.empty() ? 0.0 : sum / g.queue.size());
  int64_t idle = 0;
  for (const passes::TimeInterval& i : g.idle) idle += i.end_ns - i.start_ns;
  out += fmt::format("  time with an empty queue {} in {} intervals\n\n", FormatTime(Us(idle)),
                     g.idle.size());
  out += "Queue length per stream (operations launched and not finished)\n";
  out += fmt::format("  {:>6}  {:<12}  {:>8}  {:>8}  {:>12}  {:>12}\n", "device", "stream", "max",
                     "mean", "time at max", "blocked");
  for (const passes::StreamQueue& q : streams)
    out += fmt::format("  {:>6}  {:<12}  {:>8}  {:>8.2f}  {:>12}  {:>12}\n", q.device,
                       StreamName(t, q.stream), q.max_length, q.mean_length,
                       FormatTime(Us(q.time_at_max_ns)), FormatTime(Us(q.blocked_ns)));
  return out;
}

std::string QueueCsv(const Trace& t, const passes::FunctionEventList& e,
                     const passes::GpuEvaluation& g,
                     const std::vector<passes::StreamQueue>& streams) {
  std::string out = "scope,device,stream,ts_us,value\n";
  std::string ts;
  for (const passes::QueuePoint& p : g.queue) {
    ts.clear();
    report::JsonWriter(&ts, false).Micros(p.start_ns - e.origin_ns);
    out += fmt::format("global,,,{},{}\n", ts, p.depth);
  }
  for (const passes::StreamQueue& q : streams) {
    for (const passes::QueueSample& s : q.series) {
      ts.clear();
      report::JsonWriter(&ts, false).Micros(s.ts_ns - e.origin_ns);
      out += fmt::format("stream,{},{},{},{}\n", q.device, StreamName(t, q.stream), ts, s.length);
    }
  }
  return out;
}

std::string QueueJson(const QueueArgs& a, const Trace& t, const passes::FunctionEventList& e,
                      const passes::GpuEvaluation& g,
                      const std::vector<passes::StreamQueue>& streams) {
  std::string out;
  report::JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.queue/1");
  w.Key("input").String(a.file);
  w.Key("launches").Int(static_cast<int64_t>(g.launches));
  w.Key("kernels").Int(static_cast<int64_t>(g.kernels));
  w.Key("launches_without_kernel").Int(static_cast<int64_t>(g.launches_without_kernel));
  w.Key("global").BeginArray();
  for (const passes::QueuePoint& p : g.queue) {
    w.BeginObject();
    w.Key("ts_us").Micros(p.start_ns - e.origin_ns);
    w.Key("depth").Int(p.depth);
    w.Key("launch").Bool(p.is_launch);
    w.EndObject();
  }
  w.EndArray();
  w.Key("idle").BeginArray();
  for (const passes::TimeInterval& i : g.idle) {
    w.BeginObject();
    w.Key("start_us").Micros(i.start_ns - e.origin_ns);
    w.Key("end_us").Micros(i.end_ns - e.origin_ns);
    w.EndObject();
  }
  w.EndArray();
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
      w.Micros(s.ts_ns - e.origin_ns);
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

// ---- idle ----

struct IdleArgs {
  CommonOptions common;
  std::string file;
  int64_t kernel_delay_ns = 30;
  int gaps = 10;
};

std::string IdleText(const IdleArgs& a, const Trace& t, const passes::FunctionEventList& e,
                     const passes::IdleBreakdown& b) {
  std::string out = fmt::format(
      "GPU idle time between device activities (kernel wait: gaps under {} ns after an early "
      "launch)\n",
      b.consecutive_kernel_delay_ns);
  out +=
      fmt::format("  {:>6}  {:<12}  {:>9}  {:>12}  {:>12}  {:>12}  {:>8}  {:>12}  {:>12}  {:>12}\n",
                  "device", "stream", "activities", "window", "busy", "idle", "idle %", "host wait",
                  "kernel wait", "other");
  for (const passes::IdleTrack& tr : b.tracks) {
    out += fmt::format(
        "  {:>6}  {:<12}  {:>9}  {:>12}  {:>12}  {:>12}  {:>8}  {:>12}  {:>12}  {:>12}\n",
        tr.device, StreamName(t, tr.stream), tr.kernels, FormatTime(Us(tr.window_ns)),
        FormatTime(Us(tr.busy_ns)), FormatTime(Us(tr.idle_ns())),
        Percent(tr.idle_ns(), tr.window_ns), FormatTime(Us(tr.gap_ns[0])),
        FormatTime(Us(tr.gap_ns[1])), FormatTime(Us(tr.gap_ns[2])));
  }
  if (b.longest.empty()) return out;
  out += fmt::format("\nLongest gaps (of {} shown)\n", a.gaps);
  for (const passes::Gap& g : b.longest) {
    std::string op = g.running_op >= 0 ? std::string(t.str(e.name[g.running_op]))
                                       : "(no op running on the launching thread)";
    out += fmt::format("  {:>12}  at {:>14}  device {} {}  {:<11}  before {}\n    CPU was in: {}\n",
                       FormatTime(Us(g.end_ns - g.start_ns)),
                       FormatTime(Us(g.start_ns - e.origin_ns)), g.device, StreamName(t, g.stream),
                       passes::GapKindName(g.kind), t.str(t.events.name[g.next_activity]), op);
  }
  return out;
}

std::string IdleCsv(const Trace& t, const passes::IdleBreakdown& b) {
  std::string out =
      "device,stream,activities,window_us,busy_us,idle_us,host_wait_us,kernel_wait_us,other_us\n";
  auto us = [](int64_t ns) {
    std::string s;
    report::JsonWriter(&s, false).Micros(ns);
    return s;
  };
  for (const passes::IdleTrack& tr : b.tracks)
    out += fmt::format("{},{},{},{},{},{},{},{},{}\n", tr.device, StreamName(t, tr.stream),
                       tr.kernels, us(tr.window_ns), us(tr.busy_ns), us(tr.idle_ns()),
                       us(tr.gap_ns[0]), us(tr.gap_ns[1]), us(tr.gap_ns[2]));
  return out;
}

std::string IdleJson(const IdleArgs& a, const Trace& t, const passes::FunctionEventList& e,
                     const passes::IdleBreakdown& b) {
  std::string out;
  report::JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.idle/1");
  w.Key("input").String(a.file);
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
    w.Key("next_activity").String(t.str(t.events.name[g.next_activity]));
    w.Key("cpu_op");
    if (g.running_op >= 0)
      w.String(t.str(e.name[g.running_op]));
    else
      w.Null();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out;
}

void WarnWithoutDevice(const Trace& t, const std::string& file, Context& ctx) {
  for (ActivityKind k : t.events.kind)
    if (k == ActivityKind::kKernel || k == ActivityKind::kMemcpy || k == ActivityKind::kMemset)
      return;
  ctx.log.Warn("{}: no device activity (no kernel, memcpy or memset)", InputName(file));
}

Status RunQueue(const QueueArgs& a, Context& ctx) {
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, a.common, ctx));
  WarnWithoutDevice(trace, a.file, ctx);
  passes::FunctionEventList events = passes::BuildFunctionEvents(trace);
  passes::GpuEvaluation eval = passes::EvaluateGpu(trace, events);
  std::vector<passes::StreamQueue> streams = passes::ComputeStreamQueues(trace);
  OutputFormat f = a.common.format;
  return Emit(f == OutputFormat::kJson  ? QueueJson(a, trace, events, eval, streams)
              : f == OutputFormat::kCsv ? QueueCsv(trace, events, eval, streams)
                                        : QueueText(trace, eval, streams),
              a.common, ctx);
}

Status RunIdle(const IdleArgs& a, Context& ctx) {
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, a.common, ctx));
  WarnWithoutDevice(trace, a.file, ctx);
  passes::FunctionEventList events = passes::BuildFunctionEvents(trace);
  passes::IdleBreakdown b =
      passes::ComputeIdleBreakdown(trace, events, a.kernel_delay_ns, static_cast<size_t>(a.gaps));
  OutputFormat f = a.common.format;
  return Emit(f == OutputFormat::kJson  ? IdleJson(a, trace, events, b)
              : f == OutputFormat::kCsv ? IdleCsv(trace, b)
                                        : IdleText(a, trace, events, b),
              a.common, ctx);
}

}  // namespace

void RegisterQueueCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<QueueArgs>();
  CLI::App* cmd = app.add_subcommand(
      "queue", "CUDA queue depth over time: globally (PyTorch) and per device and stream");
  cmd->add_option("FILE", args->file, "Trace file (Kineto JSON or nvprof); - reads standard input")
      ->required();
  AddCommonOptions(cmd, &args->common,
                   {OutputFormat::kText, OutputFormat::kCsv, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunQueue);
}

void RegisterIdleCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<IdleArgs>();
  CLI::App* cmd = app.add_subcommand("idle",
                                     "GPU idle time per device and stream: host wait, kernel wait, "
                                     "other; the longest gaps and the op running");
  cmd->add_option("FILE", args->file, "Trace file (Kineto JSON or nvprof); - reads standard input")
      ->required();
  cmd->add_option("--kernel-delay", args->kernel_delay_ns,
                  "Gaps shorter than NS nanoseconds after an early launch are kernel wait (HTA's "
                  "consecutive_kernel_delay)")
      ->default_val(30)
      ->check(WholeNumber<int64_t>("--kernel-delay", 0));
  cmd->add_option("--gaps", args->gaps, "How many of the longest gaps to list")
      ->default_val(10)
      ->check(WholeNumber<int>("--gaps", 0));
  AddCommonOptions(cmd, &args->common,
                   {OutputFormat::kText, OutputFormat::kCsv, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunIdle);
}

}  // namespace profana::app
