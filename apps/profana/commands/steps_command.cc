// The options of `profana steps`; the run they make is lib/profana/run/steps.h.
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/run/steps.h"

namespace profana::app {

void RegisterStepsCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::StepsArgs>();
  CLI::App* cmd = AddCommand(
      app, ctx, args, run::RunSteps, "steps",
      "Per ProfilerStep#N and rank: wall time; GPU time in computation, exposed communication, "
      "exposed memcpy/memset and idle; hidden communication; host time outside ops");
  AddJobInputs(cmd, &args->job, "Traces", false);
  cmd->add_option("--peak-tflops", args->peak_tflops,
                  "The device's peak in TFLOP/s for MFU, for every data type (default: the "
                  "peak table's figure for the device and each op's type)")
      ->check(NonNegativeNumber("--peak-tflops"));
  AddCommonOptions(
      cmd, &args->common,
      {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kMarkdown});
}

}  // namespace profana::app
