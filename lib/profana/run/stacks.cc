#include "profana/run/stacks.h"

#include "fmt/format.h"
#include "profana/base/output_file.h"
#include "profana/job/run_job.h"
#include "profana/passes/stacks.h"
#include "profana/reporters/stacks_reporter.h"
#include "profana/run/command_load.h"
#include "profana/run/stacks_load.h"

namespace profana::run {

Status RunStacks(const StacksArgs& a, Session& session) {
  const std::vector<std::string>& files = a.job.inputs;
  if (a.diff && files.size() != 2)
    return Status(ErrorCode::kInvalidArgument, "--diff needs two files: BASE NEW");
  // Two outputs: one file cannot hold both (the second would replace the first).
  if (!a.svg.empty() && !a.common.output.empty() && IsSameFile(a.common.output, a.svg))
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("--svg {} and -o {} name the same file: the folded stacks would "
                              "replace the SVG; give -o another file (or leave it out)",
                              a.svg, a.common.output));
  CommonOptions common = a.common;
  common.unread = job::TimelineUnread(/*reads_stacks=*/true);
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
    PROFANA_ASSIGN_OR_RETURN(one, LoadStackSamples(one_input, common, session, r));
    first = report::ShapeStacks(one->trace.strings, one->samples, r.merged, r.display);
  } else {
    PROFANA_ASSIGN_OR_RETURN(
        first, job ? LoadStacksJob(a.job, std::move(sniffed.summary), common, session, r, &ranks)
                   : LoadStacks(one_input, common, session, r));
  }
  report::StacksText second;
  if (a.diff) {
    PROFANA_ASSIGN_OR_RETURN(second, LoadStacks(job::InputOfPath(files[1]), common, session, r));
    input = fmt::format("{} vs {}", files[0], files[1]);
  }
  if (a.fold_instances) report::FoldStackInstances(&first), report::FoldStackInstances(&second);
  if (!a.svg.empty()) {
    std::string title = report::FlamegraphTitle(input, a.metric_text, first.source);
    PROFANA_RETURN_IF_ERROR(session.EmitFile(
        a.svg, report::StacksSvg(a.diff ? second : first, a.diff ? &first : nullptr, title,
                                 {a.fold_instances, !a.full_paths})));
    if (a.common.output.empty()) return Status::Ok();  // the SVG was what was asked for
  }
  if (stream)
    return session.EmitStreamed([&](OutputSink* sink) {
      return report::WriteCollapsed(one->trace.strings, one->samples, r.unit,
                                    {a.fold_instances, false}, sink);
    });
  std::string text =
      a.diff ? report::FormatDiff(report::StacksInUnit(first.merged, r.unit),
                                  report::StacksInUnit(second.merged, r.unit))
             : report::FormatStacksAs(a.common.format, first, input, r.metric, r.unit, ranks);
  return session.Emit(std::move(text));
}

}  // namespace profana::run
