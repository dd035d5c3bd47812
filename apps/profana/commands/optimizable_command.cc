// profana optimizable: PyTorch's BasicEvaluation.get_optimizable_events, from a trace file.
#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/passes/function_events.h"
#include "profana/passes/gpu_evaluation.h"
#include "profana/reporters/json_writer.h"

namespace profana::app {
namespace {

struct OptimizableArgs {
  CommonOptions common;
  std::string file;
  int top = 1;
};

// Byte for byte the block get_optimizable_events prints (print() adds the last newline).
std::string Text(const Trace& t, const passes::FunctionEventList& e, const passes::Ranking& r) {
  std::string out = r.events.empty() ? "No events to optimize\n" : "Optimizable events:\n";
  std::string rule(80, '-');
  for (size_t k = 0; k < r.events.size(); ++k) {
    const passes::RankedEvent& ev = r.events[k];
    if (k) out += "\n";
    out += fmt::format(
        "{}\nEvent:                {}\nSource code location: {}\nPercentage idle time: {:.2f}%\n{}",
        rule, t.str(e.name[ev.event]), passes::SourceCodeLocation(t, e, ev.event),
        ev.idle_fraction * 100, rule);
  }
  return out + "\n";
}

std::string Json(const OptimizableArgs& a, const Trace& t, const passes::FunctionEventList& e,
                 const passes::GpuEvaluation& g, const passes::Ranking& r) {
  std::string out;
  report::JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.optimizable/1");
  w.Key("input").String(a.file);
  w.Key("launches").Int(static_cast<int64_t>(g.launches));
  w.Key("kernels").Int(static_cast<int64_t>(g.kernels));
  w.Key("launches_without_kernel").Int(static_cast<int64_t>(g.launches_without_kernel));
  int64_t idle = 0;
  for (const passes::TimeInterval& i : g.idle) idle += i.end_ns - i.start_ns;
  w.Key("idle_us").Micros(idle);
  w.Key("falling_intervals").BeginArray();
  for (const passes::TimeInterval& i : r.falling) {
    w.BeginObject();
    w.Key("start_us").Micros(i.start_ns - e.origin_ns);
    w.Key("end_us").Micros(i.end_ns - e.origin_ns);
    w.EndObject();
  }
  w.EndArray();
  w.Key("candidates").Int(static_cast<int64_t>(r.candidates));
  w.Key("events").BeginArray();
  for (const passes::RankedEvent& ev : r.events) {
    w.BeginObject();
    w.Key("name").String(t.str(e.name[ev.event]));
    w.Key("source_code_location").String(passes::SourceCodeLocation(t, e, ev.event));
    w.Key("start_us").Micros(e.start_ns[ev.event] - e.origin_ns);
    w.Key("duration_us").Micros(e.end_ns[ev.event] - e.start_ns[ev.event]);
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

Status RunOptimizable(const OptimizableArgs& a, Context& ctx) {
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, a.common, ctx));
  Stopwatch clock;
  passes::FunctionEventList events = passes::BuildFunctionEvents(trace);
  passes::GpuEvaluation eval = passes::EvaluateGpu(trace, events);
  passes::Ranking ranking = passes::RankEvents(trace, events, eval, static_cast<size_t>(a.top));
  ctx.log.Debug("queue depth over {} launches and {} kernels, {} candidates, in {:.1f} ms",
                eval.launches, eval.kernels, ranking.candidates, clock.Lap());
  if (eval.kernels == 0)
    ctx.log.Warn("{}: no kernels: nothing keeps the GPU busy, so nothing ranks", InputName(a.file));
  return Emit(a.common.format == OutputFormat::kJson ? Json(a, trace, events, eval, ranking)
                                                     : Text(trace, events, ranking),
              a.common, ctx);
}

}  // namespace

void RegisterOptimizableCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<OptimizableArgs>();
  CLI::App* cmd = app.add_subcommand("optimizable",
                                     "The CPU ops worth optimising, as PyTorch's "
                                     "BasicEvaluation.get_optimizable_events ranks them");
  cmd->add_option("FILE", args->file, "Trace file (Kineto JSON or nvprof); - reads standard input")
      ->required();
  cmd->add_option("--top", args->top, "How many events (get_optimizable_events(length=N))")
      ->default_val(1)
      ->check(WholeNumber<int>("--top", 1));
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunOptimizable);
}

}  // namespace profana::app
