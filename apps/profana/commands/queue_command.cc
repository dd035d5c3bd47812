// The options of `profana queue`; the run they make is lib/profana/run/queue.h.
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/run/queue.h"

namespace profana::app {

void RegisterQueueCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::QueueArgs>();
  CLI::App* cmd =
      AddCommand(app, ctx, args, run::RunQueue, "queue",
                 "CUDA queue depth over time: globally (PyTorch) and per device and stream");
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
}

}  // namespace profana::app
