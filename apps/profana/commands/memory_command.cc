// The options of `profana memory`; the run they make is lib/profana/run/memory.h.
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/run/memory.h"

namespace profana::app {

void RegisterMemoryCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::MemoryArgs>();
  CLI::App* cmd = AddCommand(
      app, ctx, args, run::RunMemory, "memory",
      "Memory timeline from [memory] events: peaks, live memory at the peak, leaks, per-op memory, "
      "PyTorch's export_memory_timeline formats; or a CUDA allocator snapshot "
      "(torch.cuda.memory._dump_snapshot): segments, fragmentation, the allocation history");
  cmd->add_option("FILE", args->file,
                  "Trace file or allocator snapshot (a pickle, plain or gzipped); - reads a trace "
                  "from standard input")
      ->required();
  cmd->add_option("--device", args->device,
                  "Only this device (cpu, cuda:0, or a bare index 0 for the accelerator); "
                  "timeline, raw and html draw the accelerator with the "
                  "highest peak when it is not given");
  cmd->add_flag(
      "--by-op", args->by_op,
      "Per op name: calls, allocation count and bytes, freed bytes, size increase, self columns");
  AddRowLimitOption(cmd, &args->top, RowKind::kRanked, 0,
                    "Rows per grouped list in the text report");
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common,
                   {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv,
                    OutputFormat::kTimeline, OutputFormat::kRaw, OutputFormat::kHtml});
}

}  // namespace profana::app
