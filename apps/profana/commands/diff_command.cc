// profana diff BASE NEW: where one trace spent more time than the other, per key_averages key.
#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/passes/function_events.h"
#include "profana/passes/trace_diff.h"
#include "profana/reporters/diff_reporter.h"

namespace profana::app {
namespace {

struct DiffArgs {
  CommonOptions common;
  std::string base;
  std::string next;
  std::string sort_by = "self";
  int64_t row_limit = 30;
  bool group_by_input_shape = false;
  int group_by_stack_n = 0;
  std::string color = "auto";
};

int RunDiff(const DiffArgs& a, Context& ctx) {
  passes::DiffOptions options;
  if (!passes::ParseDiffMetric(a.sort_by, &options.sort))
    return Fail(
        Status(ErrorCode::kInvalidArgument,
               fmt::format(
                   "--sort: unknown metric \"{}\" (expected one of: self, self_cpu, self_device, "
                   "cpu_total, device_total, count)",
                   a.sort_by)),
        ctx);
  options.keys = {a.group_by_input_shape, a.group_by_stack_n};
  std::optional<FunctionEventIndex> base_index, next_index;
  auto base = LoadForCommand(a.base, a.common, ctx, &base_index);
  if (!base.ok()) return Fail(base.status(), ctx);
  auto next = LoadForCommand(a.next, a.common, ctx, &next_index);
  if (!next.ok()) return Fail(next.status(), ctx);
  Stopwatch clock;
  passes::FunctionEventList base_events = passes::BuildFunctionEvents(*base, base_index);
  passes::FunctionEventList next_events = passes::BuildFunctionEvents(*next, next_index);
  passes::TraceDiff diff = passes::DiffTraces(*base, base_events, *next, next_events, options);
  ctx.log->debug("diff: {} keys in {:.1f} ms", diff.rows.size(), clock.Lap());

  report::DiffReportOptions r;
  r.base_name = a.base;
  r.new_name = a.next;
  r.row_limit = a.row_limit;
  r.color = UseColor(a.color, a.common);
  const std::string& f = a.common.format;
  return Emit(f == "json"       ? report::FormatDiffJson(diff, r)
              : f == "csv"      ? report::FormatDiffCsv(diff, r)
              : f == "markdown" ? report::FormatDiffMarkdown(diff, r)
                                : report::FormatDiffText(diff, r),
              a.common, ctx);
}

}  // namespace

void RegisterDiffCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* cmd = app.add_subcommand("diff",
                                     "Compare two traces per op and kernel (key_averages keys): "
                                     "counts, self and total times, changes");
  cmd->add_option("BASE", args->base, "The reference trace")->required();
  cmd->add_option("NEW", args->next, "The trace to compare with it")->required();
  cmd->add_option(
         "--sort", args->sort_by,
         "Order by the change of: self (self CPU + self device), self_cpu, self_device, cpu_total, "
         "device_total, count")
      ->default_str("self");
  cmd->add_option("--row-limit", args->row_limit, "Rows to print; -1 for all")->default_val(30);
  cmd->add_flag("--group-by-input-shape", args->group_by_input_shape,
                "Key rows by (name, input shapes)");
  cmd->add_option("--group-by-stack", args->group_by_stack_n,
                  "Key rows by (name, top N stack frames)");
  cmd->add_option("--color", args->color,
                  "Colour the changes: auto (when standard output is a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->default_str("auto");
  AddCommonOptions(cmd, &args->common, {"text", "json", "csv", "markdown"});
  cmd->callback([args, &ctx] { ctx.run = [args, &ctx] { return RunDiff(*args, ctx); }; });
}

}  // namespace profana::app
