#include "profana/reporters/optimizable_reporter.h"

#include "fmt/format.h"
#include "profana/base/json_writer.h"
#include "profana/base/terminal_text.h"
#include "profana/reporters/gpu_evaluation_json.h"

namespace profana::report {

// Byte for byte the block get_optimizable_events prints (print() adds the last newline). Events
// are named as recorded (ProfilerStep#8), not grouped: EventKey prints the event's own name.
std::string FormatOptimizableText(const StringPool& strings, const passes::FunctionEventList& e,
                                  const passes::OptimizableEvents& o) {
  const passes::Ranking& r = o.ranking;
  std::string out = r.events.empty() ? "No events to optimize\n" : "Optimizable events:\n";
  std::string rule(80, '-');
  for (size_t k = 0; k < r.events.size(); ++k) {
    const passes::RankedEvent& ev = r.events[k];
    if (k) out += "\n";
    out += fmt::format(
        "{}\nEvent:                {}\nSource code location: {}\nPercentage idle time: {:.2f}%\n{}",
        rule, Printable(strings.Get(e.trace_name[ev.event.value])),
        Printable(o.source_locations[k]), ev.idle_fraction * 100, rule);
  }
  return out + "\n";
}

std::string FormatOptimizableJson(const std::string& input, const StringPool& strings,
                                  const passes::FunctionEventList& e,
                                  const passes::OptimizableEvents& o) {
  const passes::GpuEvaluation& g = o.evaluation;
  const passes::Ranking& r = o.ranking;
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.optimizable/1");
  w.Key("input").String(input);
  WriteLaunchCounts(w, g);
  w.Key("idle_us").Micros(passes::IdleNs(g));
  w.Key("falling_intervals");
  WriteIntervals(w, r.falling, e.origin_ns);
  w.Key("candidates").Int(static_cast<int64_t>(r.candidates));
  w.Key("events").BeginArray();
  for (size_t k = 0; k < r.events.size(); ++k) {
    const passes::RankedEvent& ev = r.events[k];
    w.BeginObject();
    w.Key("name").String(strings.Get(e.trace_name[ev.event.value]));
    w.Key("source_code_location").String(o.source_locations[k]);
    w.Key("start_us").Micros(e.start_ns[ev.event.value] - e.origin_ns);
    w.Key("duration_us").Micros(e.end_ns[ev.event.value] - e.start_ns[ev.event.value]);
    w.Key("self_us").Micros(ev.self_ns);
    w.Key("idle_us").Micros(ev.idle_ns);
    w.Key("idle_fraction").Double(ev.idle_fraction);
    w.Key("queue_depth").Int(ev.queue_depth);
    w.Key("score").Double(ev.score);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out;
}

std::string WhyNothingRanks(const passes::OptimizableEvents& o) {
  const passes::GpuEvaluation& eval = o.evaluation;
  const passes::Ranking& r = o.ranking;
  if (!r.events.empty()) return "";
  if (eval.kernels == 0) return "no kernels: nothing keeps the GPU busy, so nothing ranks";
  if (eval.launches == 0)
    return fmt::format(
        "{} kernels but no launch calls (cudaLaunchKernel, hipLaunchKernel, ...): without them "
        "the queue depth is unknown, so nothing ranks",
        eval.kernels);
  if (r.falling.empty()) {
    return fmt::format(
        "the queue never drains to 0 from a depth of 4 or more (its deepest is {}): the GPU is "
        "never starved after being busy, so nothing ranks",
        passes::MaxQueueDepth(eval));
  }
  return fmt::format("no CPU op overlaps the {} interval{} where the queue drains to 0",
                     r.falling.size(), r.falling.size() == 1 ? "" : "s");
}

std::string FormatOptimizableAs(OutputFormat format, const std::string& input,
                                const StringPool& strings, const passes::FunctionEventList& events,
                                const passes::OptimizableEvents& optimizable) {
  return format == OutputFormat::kJson ? FormatOptimizableJson(input, strings, events, optimizable)
                                       : FormatOptimizableText(strings, events, optimizable);
}

}  // namespace profana::report
