// The options of `profana collectives`; the run they make is lib/profana/run/collectives.h.
#include "profana/commands/commands.h"
#include "profana/commands/job_common.h"
#include "profana/commands/option_checks.h"
#include "profana/run/collectives.h"

namespace profana::app {

void RegisterCollectivesCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<run::CollectivesArgs>();
  CLI::App* cmd = AddCommand(
      app, ctx, args, run::RunCollectives, "collectives",
      "Collectives matched across ranks: arrival skew, transfer time, wait per rank, algorithm "
      "and bus bandwidth; which rank makes the others wait; the clock offsets between ranks");
  AddJobInputs(cmd, &args->job, "Traces of one job (one per rank)", false);
  cmd->add_flag("--no-align", args->no_align,
                "Keep each rank's own clock (default: align the ranks on the ends of matched "
                "collectives)");
  cmd->add_option("--table", args->table,
                  "With --format csv, the table to write: collectives (default; one row per "
                  "collective) or stragglers (one row per rank)")
      ->check(OneOf("--table", "table", {"collectives", "stragglers"}));
  AddRowLimitOption(cmd, &args->row_limit, RowKind::kRanked, -1,
                    "Collectives to print, most wait first; -1 for all");
  AddCommonOptions(
      cmd, &args->common,
      {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kMarkdown});
}

}  // namespace profana::app
