// profana stacks: flamegraph input (PyTorch's export_stacks, merged, differential) and an
// interactive SVG, from Python stacks or from the op tree.
#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/passes/function_events.h"
#include "profana/passes/stacks.h"
#include "profana/reporters/flamegraph_svg.h"
#include "profana/reporters/json_writer.h"
#include "profana/reporters/stacks_reporter.h"

namespace profana::app {
namespace {

struct StacksArgs {
  CommonOptions common;
  std::vector<std::string> files;
  std::string metric = "self_cpu";
  std::string source = "auto";
  std::string unit = "us";
  bool merge = false;
  bool diff = false;
  std::string svg;
};

struct Loaded {
  std::map<std::string, int64_t> merged;
  std::string collapsed;
  passes::StackSource source;
};

const char* SourceName(passes::StackSource s) {
  switch (s) {
    case passes::StackSource::kPython:
      return "python";
    case passes::StackSource::kOps:
      return "ops";
    case passes::StackSource::kBoth:
      return "both";
    case passes::StackSource::kAuto:
      return "auto";
  }
  return "auto";
}

// Loads one trace and computes its samples; says in one line why a result is empty.
Result<Loaded> Compute(const std::string& file, const StacksArgs& a, passes::StackSource source,
                       passes::StackMetric metric, Context& ctx) {
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(file, a.common, ctx));
  Stopwatch clock;
  passes::FunctionEventList events = passes::BuildFunctionEvents(trace);
  ctx.log.Debug("function events: {} in {:.1f} ms", events.size(), clock.Lap());
  passes::StackSamples samples = passes::ComputeStackSamples(trace, events, source, metric);
  ctx.log.Debug("stack samples: {} ({} distinct stacks) in {:.1f} ms", samples.stack.size(),
                samples.trie.size() - 1, clock.Lap());
  report::StackUnit unit = a.unit == "ns" ? report::StackUnit::kNanos : report::StackUnit::kMicros;
  std::string name = InputName(file);
  if (metric == passes::StackMetric::kSelfCuda && !samples.has_device_activity)
    ctx.log.Warn("{}: no device activity (no kernel, memcpy or memset): no self_cuda stacks", name);
  else if (samples.stack.empty() && samples.source == passes::StackSource::kPython)
    ctx.log.Warn(
        "{}: no Python stacks recorded (profile with with_stack=True, or use --stacks ops)", name);
  Loaded out;
  out.source = samples.source;
  // One line per event (export_stacks) needs no merging; everything else is drawn from the merge.
  bool per_event = !a.merge && !a.diff && a.common.format != OutputFormat::kJson;
  if (per_event) out.collapsed = report::FormatCollapsed(trace, samples, unit);
  if (!per_event || !a.svg.empty()) out.merged = report::MergeStacks(trace, samples, unit);
  ctx.log.Debug("stack text: {} bytes, {} merged stacks in {:.1f} ms", out.collapsed.size(),
                out.merged.size(), clock.Lap());
  return out;
}

std::string Json(const Loaded& l, const StacksArgs& a) {
  std::string out;
  report::JsonWriter w(&out);
  w.BeginObject();
  w.Key("schema").String("profana.stacks/1");
  w.Key("input").String(a.files[0]);
  w.Key("metric").String(a.metric.rfind("self_cuda", 0) == 0 ? "self_cuda" : "self_cpu");
  w.Key("source").String(SourceName(l.source));
  w.Key("unit").String(a.unit);
  int64_t total = 0;
  for (const auto& [s, weight] : l.merged) total += weight;
  w.Key("total").Int(total);
  w.Key("stacks").BeginArray();
  for (const auto& [stack, weight] : l.merged) {
    w.BeginObject();
    w.Key("frames").BeginArray();
    size_t pos = 0;
    while (pos <= stack.size()) {
      size_t end = stack.find(';', pos);
      if (end == std::string::npos) end = stack.size();
      w.String(std::string_view(stack).substr(pos, end - pos));
      pos = end + 1;
    }
    w.EndArray();
    w.Key("weight").Int(weight);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out;
}

Status RunStacks(const StacksArgs& a, Context& ctx) {
  passes::StackMetric metric;
  passes::StackSource source;
  passes::ParseStackMetric(a.metric, &metric);
  passes::ParseStackSource(a.source, &source);
  if (a.diff != (a.files.size() == 2))
    return Status(ErrorCode::kInvalidArgument,
                  a.diff ? "--diff needs two files: BASE NEW"
                         : "two files are compared only with --diff BASE NEW");
  PROFANA_ASSIGN_OR_RETURN(Loaded first, Compute(a.files[0], a, source, metric, ctx));
  std::string text;
  if (a.diff) {
    PROFANA_ASSIGN_OR_RETURN(Loaded second, Compute(a.files[1], a, source, metric, ctx));
    text = report::FormatDiff(first.merged, second.merged);
  } else if (a.common.format == OutputFormat::kJson) {
    text = Json(first, a);
  } else {
    text = a.merge ? report::FormatMerged(first.merged) : first.collapsed;
  }
  if (!a.svg.empty()) {
    std::string title =
        fmt::format("{} ({}, {} stacks)", a.files[0], a.metric, SourceName(first.source));
    CommonOptions svg_out = a.common;
    svg_out.output = a.svg;
    PROFANA_RETURN_IF_ERROR(
        Emit(report::FormatFlamegraphSvg(first.merged, title, a.unit), svg_out, ctx));
    if (a.common.output.empty()) return Status::Ok();  // the SVG was what was asked for
  }
  return Emit(std::move(text), a.common, ctx);
}

}  // namespace

void RegisterStacksCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<StacksArgs>();
  CLI::App* cmd = app.add_subcommand("stacks",
                                     "Flamegraph stacks (PyTorch's export_stacks, merged, or a "
                                     "differential of two runs), and an SVG");
  cmd->add_option("FILE", args->files, "Trace file; - reads standard input. With --diff: BASE NEW")
      ->required()
      ->expected(1, 2);
  cmd->add_option("--metric", args->metric,
                  "self_cpu or self_cuda (or PyTorch's self_cpu_time_total, self_cuda_time_total)")
      ->default_str("self_cpu")
      ->check(Named("--metric", "metric",
                    "self_cpu, self_cuda, self_cpu_time_total, self_cuda_time_total",
                    [](const std::string& s) {
                      passes::StackMetric m;
                      return passes::ParseStackMetric(s, &m);
                    }));
  cmd->add_option("--stacks", args->source,
                  "Where stacks come from: python (recorded Python stacks), ops (the op tree; "
                  "kernels as leaves "
                  "for self_cuda), both, or auto (python where recorded, else ops)")
      ->default_str("auto")
      ->check(Named("--stacks", "source", "auto, python, ops, both", [](const std::string& s) {
        passes::StackSource source;
        return passes::ParseStackSource(s, &source);
      }));
  cmd->add_flag("--merge", args->merge,
                "One line per distinct stack with the summed weight, sorted");
  cmd->add_flag("--diff", args->diff,
                "Differential folded stacks of BASE and NEW: 'stack weight_base weight_new'");
  cmd->add_option("--unit", args->unit,
                  "Weights in integer microseconds (PyTorch's) or nanoseconds (exact sums)")
      ->check(OneOf("--unit", "unit", {"us", "ns"}))
      ->default_str("us");
  cmd->add_option("--svg", args->svg,
                  "Also draw an interactive flamegraph SVG to FILE (stdout stays empty unless -o)");
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunStacks);
}

}  // namespace profana::app
