#include "profana/run/diff.h"

#include "fmt/format.h"
#include "profana/job/diff_job.h"
#include "profana/passes/memory/snapshot_diff.h"
#include "profana/reporters/diff_reporter.h"
#include "profana/reporters/snapshot_diff_reporter.h"
#include "profana/run/command_load.h"
#include "profana/run/snapshot_load.h"

namespace profana::run {
namespace {

Status RunSnapshotDiff(const DiffArgs& a, const InputFile& base_file, const InputFile& next_file,
                       Session& session) {
  OutputFormat f = a.common.format;
  if (f == OutputFormat::kMarkdown)
    return Status(ErrorCode::kInvalidArgument,
                  "two allocator snapshots compare as text, json or csv");
  PROFANA_ASSIGN_OR_RETURN(AllocatorSnapshot base,
                           LoadSnapshotForCommand(base_file, a.common, session));
  PROFANA_ASSIGN_OR_RETURN(AllocatorSnapshot next,
                           LoadSnapshotForCommand(next_file, a.common, session));
  passes::SnapshotAnalysis base_analysis = passes::AnalyzeSnapshot(base);
  passes::SnapshotAnalysis next_analysis = passes::AnalyzeSnapshot(next);
  report::SnapshotDiffContext c{&base, &next, a.base, a.next, a.row_limit};
  return session.Emit(report::FormatSnapshotDiffAs(
      f, passes::DiffSnapshots(base, base_analysis, next, next_analysis), c));
}

}  // namespace

Status RunDiff(const DiffArgs& a, Session& session) {
  // Each side opened once: to tell a snapshot from a trace, and to read either.
  job::DiffSide base = job::OpenDiffSide(a.base), next = job::OpenDiffSide(a.next);
  bool base_snapshot = IsSnapshot(base.single), next_snapshot = IsSnapshot(next.single);
  if (base_snapshot && next_snapshot)
    return RunSnapshotDiff(a, *base.single->file, *next.single->file, session);
  if (base_snapshot || next_snapshot)
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{} is an allocator snapshot and {} is not: diff compares two traces "
                              "or two snapshots",
                              base_snapshot ? a.base : a.next, base_snapshot ? a.next : a.base));
  report::DiffReportOptions r;
  r.base_name = a.base, r.new_name = a.next, r.row_limit = a.row_limit;
  r.color = a.color == "always" || (a.color == "auto" && session.ColorsWanted());
  r.max_name_width = a.max_name_width, r.no_truncate = a.no_truncate, r.full_names = a.full_names;
  job::JobRequest request = SidesRequestFor(a.ranks, a.common, session);
  std::vector<job::LoadNote> notes;
  if (!a.by_rank) {
    PROFANA_ASSIGN_OR_RETURN(
        job::DiffRun run,
        WithNotes(job::DiffInputs(base, next, request, a.options, &notes), notes, session));
    return session.Emit(report::FormatDiffAs(a.common.format, run.diff, r));
  }
  PROFANA_ASSIGN_OR_RETURN(
      job::RankDiffsRun run,
      WithNotes(job::DiffInputsByRank(base, next, request, a.options, &notes), notes, session));
  return session.Emit(report::FormatRankDiffsAs(a.common.format, run.diffs, r));
}

}  // namespace profana::run
