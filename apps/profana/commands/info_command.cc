// The options of `profana info`; the run they make is lib/profana/run/info.h.
#include "profana/commands/commands.h"
#include "profana/run/info.h"

namespace profana::app {

void RegisterInfoCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::InfoArgs>();
  args->common.keeps_flows = true;
  CLI::App* cmd = AddCommand(app, ctx, args, run::RunInfo, "info",
                             "Describe a trace file: format, counts, span, devices, diagnostics");
  cmd->add_option("FILE", args->file, "Trace file; - reads standard input")->required();
  AddLinkOption(cmd, &args->common);
  AddCommonOptions(cmd, &args->common, {OutputFormat::kText, OutputFormat::kJson});
}

}  // namespace profana::app
