// The options of `profana critical-path`; the run they make is lib/profana/run/critical_path.h.
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/run/critical_path.h"

namespace profana::app {

void RegisterCriticalPathCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::CriticalPathArgs>();
  CLI::App* cmd = AddCommand(
      app, ctx, args, run::RunCriticalPath, "critical-path",
      "The chain of CPU ops, launches, kernels and synchronisations that sets each step's length "
      "(HTA's critical path), what would change it (--what-if), and an overlay trace");
  cmd->add_option("FILE", args->inputs,
                  "Trace file, or a directory or glob of a job's rank traces; - reads standard "
                  "input")
      ->required();
  // With both, --annotation wins: CLI11 runs the callbacks in the order the options are added.
  cmd->add_option_function<int64_t>(
         "--step",
         [args](int64_t n) {
           args->request.select = passes::CpRequest::Select::kStep;
           args->request.step = n;
         },
         "Only ProfilerStep#N (default: every step)")
      ->check(WholeNumber<int64_t>("--step", 0));
  cmd->add_option_function<std::string>(
      "--annotation",
      [args](const std::string& v) {
        args->request.select = passes::CpRequest::Select::kAnnotation;
        args->request.annotation = v;
      },
      "The window of an event whose name holds NAME (HTA's annotation); \"\" is the whole trace");
  cmd->add_option("--instance", args->request.instance,
                  "Which event --annotation means: 0 the first, in time order (default 0)")
      ->check(WholeNumber<int64_t>("--instance", 0));
  cmd->add_option("--data-load", args->request.data_load,
                  "User annotations whose names match this regex are ops on the path (HTA's "
                  "data_load_events)");
  AddParsedOption(
      cmd, "--what-if",
      [args](const std::string& text) -> Status {
        PROFANA_ASSIGN_OR_RETURN(passes::CpWhatIf w, passes::ParseWhatIf(text));
        args->request.what_if.push_back(std::move(w));
        return Status::Ok();
      },
      "KIND:REGEX=FACTOR (KIND kernel, op, sync or launch): rescale the matching edges and "
      "predict the step's length; repeat for several, applied in turn",
      true);
  AddRowLimitOption(cmd, &args->events, RowKind::kRanked, 0,
                    "How many of the path's events to list per window");
  cmd->add_option("--events", args->events, "How many of the path's events to list per window")
      ->check(WholeNumber<int64_t>("--events", 0))
      ->group("");  // hidden: command lines written with it keep working
  cmd->add_flag("--causal-launch-edges", args->request.causal_launch_edges,
                "Add a zero-weight edge from every launch call to its kernel (HTA's "
                "CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE; always on with --what-if)");
  cmd->add_option("--overlay", args->overlay,
                  "Write the trace back with \"critical\": 1 on the path's events and flow "
                  "arrows on its edges, as HTA does (.gz: gzipped); opens in Perfetto");
  cmd->add_flag("--overlay-all-edges", args->overlay_all_edges,
                "Draw every critical edge in the overlay, not only dependency, launch and sync "
                "edges");
  AddCommonOptions(
      cmd, &args->common,
      {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kMarkdown});
}

}  // namespace profana::app
