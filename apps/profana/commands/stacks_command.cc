// profana stacks: flamegraph input (PyTorch's export_stacks, merged, differential) and an
// interactive SVG, from Python stacks or from the op tree.
#include <mutex>

#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/job/rank_summary.h"
#include "profana/passes/function_events.h"
#include "profana/passes/stacks.h"
#include "profana/reporters/flamegraph_svg.h"
#include "profana/reporters/stacks_reporter.h"

namespace profana::app {
namespace {

struct StacksArgs {
  CommonOptions common;
  JobArgs job;  // inputs: one trace, BASE NEW with --diff, or several traces (a job)
  std::string metric_text = "self_cpu";  // as given: the SVG's title says it
  passes::StackMetric metric = passes::StackMetric::kSelfCpu;
  passes::StackSource source = passes::StackSource::kAuto;
  std::string unit = "us";
  report::StackUnit stack_unit() const {
    return unit == "ns" ? report::StackUnit::kNanos : report::StackUnit::kMicros;
  }
  bool merge = false;
  bool diff = false;
  std::string svg;
};

// One trace's stacks: export_stacks' lines, or the merge (for --merge, --diff, JSON and the SVG).
struct Stacks {
  std::string collapsed;
  std::map<std::string, int64_t> merged;
  passes::StackSource source;
};

// Loads one trace and computes its samples; says in one line why a result is empty.
Result<Stacks> Compute(const std::string& file, const StacksArgs& a, Context& ctx) {
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(file, a.common, ctx, &index));
  Stopwatch clock;
  passes::FunctionEventList events = BuildEventsForCommand(trace, index, a.common, ctx);
  ctx.log.Debug("function events: {} in {:.1f} ms", events.size(), clock.Lap());
  passes::StackSamples samples = passes::ComputeStackSamples(trace, events, a.source, a.metric);
  ctx.log.Debug("stack samples: {} ({} distinct stacks) in {:.1f} ms", samples.stack.size(),
                samples.trie.size() - 1, clock.Lap());
  if (a.metric == passes::StackMetric::kSelfCuda && !samples.has_device_activity)
    ctx.log.Warn("{}: no device activity (no kernel, memcpy or memset): no self_cuda stacks",
                 InputName(file));
  else if (samples.stack.empty() && samples.source == passes::StackSource::kPython)
    ctx.log.Warn(
        "{}: no Python stacks recorded (profile with with_stack=True, or use --stacks ops)",
        InputName(file));
  Stacks out;
  out.source = samples.source;
  // One line per event (export_stacks) needs no merging; everything else is drawn from the merge.
  bool per_event = !a.merge && !a.diff && a.common.format != OutputFormat::kJson;
  if (per_event) out.collapsed = report::FormatCollapsed(trace, samples, a.stack_unit());
  if (!per_event || !a.svg.empty())
    out.merged = report::MergeStacks(trace, samples, a.stack_unit());
  ctx.log.Debug("stack text: {} bytes, {} merged stacks in {:.1f} ms", out.collapsed.size(),
                out.merged.size(), clock.Lap());
  return out;
}

// Several traces: each rank's merged stacks, summed (with --by-rank, under a "rank N" root frame
// per rank, so one flamegraph shows the ranks side by side).
Result<Stacks> ComputeJob(const StacksArgs& a, Context& ctx, std::vector<int64_t>* ranks) {
  bool any_python = false;
  passes::StackSource used = a.source;
  std::mutex used_mutex;  // the reducer runs on several workers
  PROFANA_ASSIGN_OR_RETURN(
      job::JobSummary job,
      LoadJob(a.job, a.common, ctx,
              [&](const Trace& t, const passes::FunctionEventList& e, const std::string& p) {
                job::RankSummary s = job::SummarizeRank(t, e, p, {});
                passes::StackSamples samples =
                    passes::ComputeStackSamples(t, e, a.source, a.metric);
                s.stacks = report::MergeStacks(t, samples, a.stack_unit());
                std::lock_guard<std::mutex> lock(used_mutex);
                used = samples.source;
                if (samples.source == passes::StackSource::kPython) any_python = true;
                return s;
              }));
  *ranks = job.RankList();
  Stacks out;
  // auto: python where any rank recorded stacks.
  out.source = any_python ? passes::StackSource::kPython : used;
  if (!a.job.by_rank) {
    out.merged = job.Combine().stacks;
    return out;
  }
  for (const job::RankSummary& s : job.ranks)
    for (const auto& [stack, weight] : s.stacks)
      out.merged[fmt::format("rank {};{}", s.rank(), stack)] += weight;
  return out;
}

Status RunStacks(const StacksArgs& a, Context& ctx) {
  const std::vector<std::string>& files = a.job.inputs;
  if (a.diff && files.size() != 2)
    return Status(ErrorCode::kInvalidArgument, "--diff needs two files: BASE NEW");
  std::vector<int64_t> ranks;
  std::string input = files[0];
  Stacks first;
  if (!a.diff && !IsSingleTraceRun(a.job)) {
    PROFANA_ASSIGN_OR_RETURN(first, ComputeJob(a, ctx, &ranks));
    input = fmt::format("{}", fmt::join(files, " "));
  } else {
    PROFANA_ASSIGN_OR_RETURN(first, Compute(files[0], a, ctx));
  }
  std::string text;
  if (a.diff) {
    PROFANA_ASSIGN_OR_RETURN(Stacks second, Compute(files[1], a, ctx));
    text = report::FormatDiff(first.merged, second.merged);
  } else if (a.common.format == OutputFormat::kJson) {
    text = report::FormatStacksJson(input, a.metric, first.source, a.stack_unit(), first.merged,
                                    ranks);
  } else {
    text = a.merge || !ranks.empty() ? report::FormatMerged(first.merged) : first.collapsed;
  }
  if (!a.svg.empty()) {
    std::string title = fmt::format("{} ({}, {} stacks)", input, a.metric_text,
                                    report::StackSourceName(first.source));
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
  AddJobInputs(cmd, &args->job,
               "Traces (stacks summed over ranks when several); with --diff: BASE NEW", true);
  AddNamedOption(cmd, "--metric", &args->metric, passes::ParseStackMetric, "metric",
                 "self_cpu, self_cuda, self_cpu_time_total, self_cuda_time_total",
                 "self_cpu or self_cuda (or PyTorch's self_cpu_time_total, self_cuda_time_total)")
      ->default_str("self_cpu")
      ->each([args](const std::string& text) { args->metric_text = text; });
  AddNamedOption(
      cmd, "--stacks", &args->source, passes::ParseStackSource, "source", "auto, python, ops, both",
      "Where stacks come from: python (recorded Python stacks), ops (the op tree; "
      "kernels as leaves for self_cuda), both, or auto (python where recorded, else ops)")
      ->default_str("auto");
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
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunStacks);
}

}  // namespace profana::app
