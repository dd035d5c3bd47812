// profana stacks: flamegraph input (PyTorch's export_stacks, merged, differential) and an
// interactive SVG, from Python stacks or from the op tree.
#include <optional>

#include "fmt/format.h"
#include "profana/base/output_file.h"
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/commands/stacks_load.h"
#include "profana/passes/stacks.h"
#include "profana/reporters/stacks_reporter.h"

namespace profana::app {
namespace {

struct StacksArgs {
  CommonOptions common;
  JobArgs job;  // inputs: one trace, BASE NEW with --diff, or several traces (a job)
  std::string metric_text = "self_cpu";  // as given: the SVG's title says it
  StacksRequest request;
  std::string unit = "us";
  bool merge = false, diff = false, full_paths = false, fold_instances = false;
  std::string svg;
};

Status RunStacks(const StacksArgs& a, Context& ctx) {
  const std::vector<std::string>& files = a.job.inputs;
  if (a.diff && files.size() != 2)
    return Status(ErrorCode::kInvalidArgument, "--diff needs two files: BASE NEW");
  // Two outputs: one file cannot hold both (the second would replace the first).
  if (!a.svg.empty() && !a.common.output.empty() && IsSameFile(a.common.output, a.svg))
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("--svg {} and -o {} name the same file: the folded stacks would "
                              "replace the SVG; give -o another file (or leave it out)",
                              a.svg, a.common.output));
  job::SniffedInputs sniffed;
  if (!a.diff) sniffed = SniffJobArgs(a.job);
  bool job = !a.diff && !sniffed.single;
  job::JobInput one_input =
      sniffed.single ? std::move(*sniffed.single) : job::InputOfPath(files[0]);
  StacksRequest r = ShapeRequest(a.request, a.unit, a.merge || a.diff,
                                 a.common.format == OutputFormat::kJson, !a.svg.empty());
  std::vector<int64_t> ranks;
  std::string input = job ? fmt::format("{}", fmt::join(files, " ")) : files[0];
  // One trace's export_stacks lines (a line per event: hundreds of MB with Python stacks) are
  // written from its samples as they are made, never held whole.
  bool stream = !a.diff && !job && r.per_event;
  std::optional<TraceStackSamples> one;
  report::StacksText first;
  if (stream) {
    PROFANA_ASSIGN_OR_RETURN(one, LoadStackSamples(one_input, a.common, ctx, r));
    first = report::ShapeStacks(one->trace.strings, one->samples, r.merged, r.display);
  } else {
    PROFANA_ASSIGN_OR_RETURN(
        first, job ? LoadStacksJob(a.job, std::move(sniffed.summary), a.common, ctx, r, &ranks)
                   : LoadStacks(one_input, a.common, ctx, r));
  }
  report::StacksText second;
  if (a.diff) {
    PROFANA_ASSIGN_OR_RETURN(second, LoadStacks(job::InputOfPath(files[1]), a.common, ctx, r));
    input = fmt::format("{} vs {}", files[0], files[1]);
  }
  if (a.fold_instances) report::FoldStackInstances(&first), report::FoldStackInstances(&second);
  if (!a.svg.empty()) {
    CommonOptions svg_out = a.common;
    svg_out.output = a.svg;
    std::string title = report::FlamegraphTitle(input, a.metric_text, first.source);
    PROFANA_RETURN_IF_ERROR(
        Emit(report::StacksSvg(a.diff ? second : first, a.diff ? &first : nullptr, title,
                               {a.fold_instances, !a.full_paths}),
             svg_out, ctx));
    if (a.common.output.empty()) return Status::Ok();  // the SVG was what was asked for
  }
  if (stream)
    return EmitStreamed(a.common, ctx, [&](OutputSink* sink) {
      return report::WriteCollapsed(one->trace.strings, one->samples, r.unit,
                                    {a.fold_instances, false}, sink);
    });
  std::string text =
      a.diff ? report::FormatDiff(report::StacksInUnit(first.merged, r.unit),
                                  report::StacksInUnit(second.merged, r.unit))
             : report::FormatStacksAs(a.common.format, first, input, r.metric, r.unit, ranks);
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
  AddNamedOption(cmd, "--metric", &args->request.metric, passes::ParseStackMetric,
                 passes::StackMetricNames(),
                 "self_cpu or self_cuda, also self_device (or PyTorch's self_cpu_time_total, "
                 "self_cuda_time_total, self_device_time_total)")
      ->default_str("self_cpu")
      ->each([args](const std::string& text) { args->metric_text = text; });
  AddNamedOption(
      cmd, "--stacks", &args->request.source, passes::ParseStackSource, passes::StackSourceNames(),
      "Where stacks come from: python (PyTorch's export_stacks: \"Call stack\" args, or, for a "
      "PyTorch 2.x trace recorded without verbose=True, for which its export_stacks writes an "
      "empty file, rebuilt from the python_function events), ops (the op tree; kernels as leaves "
      "for self_cuda), both, or auto (python where recorded, else ops)")
      ->default_str("auto");
  cmd->add_flag("--merge", args->merge,
                "One line per distinct stack with the summed weight, sorted");
  cmd->add_flag("--diff", args->diff,
                "Differential folded stacks of BASE and NEW: 'stack weight_base weight_new'");
  cmd->add_option("--unit", args->unit,
                  "Weights in whole microseconds or nanoseconds. A line per event (the default "
                  "text) in us is PyTorch's export_stacks: each event's time cut to whole "
                  "microseconds. --merge, --diff, JSON and the SVG sum exact nanoseconds (us: "
                  "each stack's sum rounded once)")
      ->check(OneOf("--unit", "unit", {"us", "ns"}))
      ->default_str("us");
  cmd->add_option("--svg", args->svg,
                  "Also draw an interactive flamegraph SVG to FILE (stdout stays empty unless -o), "
                  "from exact nanoseconds whatever --unit says");
  cmd->add_flag("--fold-instances", args->fold_instances,
                "nn.Module: Block_0 ... Block_35 as one frame nn.Module: Block_* (text and SVG)");
  cmd->add_flag("--full-paths", args->full_paths,
                "SVG: keep Python frames' site-packages and home directory prefixes");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunStacks);
}

}  // namespace profana::app
