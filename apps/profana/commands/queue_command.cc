// profana queue: the CUDA queue depth over time, globally as PyTorch computes it, and per device
// and stream by profana's definition or HTA's (--model).
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/passes/function_events.h"
#include "profana/passes/gpu_evaluation.h"
#include "profana/passes/gpu_streams.h"
#include "profana/reporters/queue_reporter.h"

namespace profana::app {
namespace {

struct QueueArgs {
  CommonOptions common;
  std::string file;
  std::string model = "profana";
  int32_t limit = passes::kCudaLaunchQueueLimit;
};

Status RunQueue(const QueueArgs& a, Context& ctx) {
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, a.common, ctx, &index));
  WarnWithoutDeviceActivity(trace, a.file, ctx);
  PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                           BuildEventsForCommand(trace, index, a.file, a.common, ctx));
  LaunchIndex launches(trace.events);
  passes::GpuEvaluation eval = passes::EvaluateGpu(trace, events, launches);
  passes::QueueModel model =
      a.model == "hta" ? passes::QueueModel::kHta : passes::QueueModel::kProfana;
  std::vector<passes::StreamQueue> streams =
      passes::ComputeStreamQueues(trace, launches, model, a.limit);
  return Emit(report::FormatQueueAs(a.common.format, a.file, trace, events.origin_ns, eval, streams,
                                    model, a.limit),
              a.common, ctx);
}

}  // namespace

void RegisterQueueCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<QueueArgs>();
  CLI::App* cmd = app.add_subcommand(
      "queue", "CUDA queue depth over time: globally (PyTorch) and per device and stream");
  cmd->add_option("FILE", args->file, "Trace file; - reads standard input")->required();
  cmd->add_option("--model", args->model,
                  "Per-stream queue: profana (an operation counts from its launch until it ends; "
                  "time-weighted mean) or hta (until it starts, launches by cudaLaunchKernel, "
                  "cudaMemcpyAsync and the like only; mean over change points, as HTA's "
                  "get_queue_length_summary)")
      ->default_val("profana")
      ->check(OneOf("--model", "queue model", {"profana", "hta"}));
  cmd->add_option("--queue-limit", args->limit,
                  "A stream with N or more operations outstanding counts as blocked (CUDA's "
                  "launch queue holds 1024; HTA's max_queue_length)")
      ->default_val(passes::kCudaLaunchQueueLimit)
      ->check(WholeNumber<int32_t>("--queue-limit", 1));
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common,
                   {OutputFormat::kText, OutputFormat::kCsv, OutputFormat::kJson});
  SetRun(cmd, ctx, args, RunQueue);
}

}  // namespace profana::app
