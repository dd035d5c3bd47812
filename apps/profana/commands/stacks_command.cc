// The options of `profana stacks`; the run they make is lib/profana/run/stacks.h.
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/run/stacks.h"

namespace profana::app {

void RegisterStacksCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::StacksArgs>();
  CLI::App* cmd = AddCommand(app, ctx, args, run::RunStacks, "stacks",
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
}

}  // namespace profana::app
