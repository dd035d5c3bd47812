#include "profana/run/table.h"

#include "profana/job/diff_job.h"
#include "profana/job/trace_table.h"
#include "profana/passes/function_events.h"
#include "profana/passes/key_averages.h"
#include "profana/reporters/job_table_reporter.h"
#include "profana/run/command_load.h"

namespace profana::run {
namespace {

// Several traces (a directory, a glob, --ranks, --by-rank): key averages per rank, summed per key
// over the ranks (or one block per rank), from each rank's summary.
Status RunTableJob(const TableArgs& a, std::shared_ptr<InputFile> opened, Session& session) {
  if (a.rows.raw)
    return Status(ErrorCode::kInvalidArgument,
                  "--raw lists the events of one trace: it cannot combine several");
  job::JobRequest request = JobRequestFor(a.job, a.common, std::move(opened));
  std::vector<job::LoadNote> notes;
  PROFANA_ASSIGN_OR_RETURN(
      job::JobRun run,
      WithNotes(job::RunTableJob(request, a.rows.keys, /*steps=*/false, &notes), notes, session));
  PROFANA_ASSIGN_OR_RETURN(std::vector<job::RankSummary> parts,
                           job::TableParts(std::move(run.job), a.job.by_rank, a.rows.sort));
  return session.Emit(report::FormatJobTable(a.common.format, std::move(parts), a.job.by_rank,
                                             a.job.inputs, a.table, a.rows));
}

}  // namespace

Status RunTable(const TableArgs& a, Session& session) {
  if (a.rows.raw && (a.rows.keys.group_by_input_shape || a.rows.keys.group_by_stack_n > 0))
    return Status(ErrorCode::kInvalidArgument, "--raw lists single events: it cannot be grouped");
  job::SniffedInputs sniffed = SniffJobArgs(a.job);
  if (!sniffed.single) return RunTableJob(a, std::move(sniffed.summary), session);
  std::optional<FunctionEventIndex> index;
  CommonOptions common = a.common;
  common.unread = job::TableUnread(a.rows.keys, a.rows.raw);
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(*sniffed.single, common, session, &index));
  Stopwatch clock;
  PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                           BuildEventsForCommand(trace, index, a.job.inputs[0], common, session));
  session.Debug("function events: {} in {:.1f} ms (peak RSS {:.0f} MB)", events.size(), clock.Lap(),
                PeakRssMb());
  std::vector<job::LoadNote> notes;
  std::vector<passes::AverageRow> rows = job::TraceTableRows(
      trace, events, a.job.inputs[0], a.rows.raw, a.rows.keys, a.rows.sort, &notes);
  session.Notes(notes);
  session.Debug("key averages: {} rows in {:.1f} ms (peak RSS {:.0f} MB)", rows.size(), clock.Lap(),
                PeakRssMb());
  report::RowsContext context = a.rows;
  context.input = a.job.inputs[0];
  context.format = TraceFormatName(trace.metadata.format);
  report::TableOptions table = a.table;
  table.with_flops = trace.metadata.with_flops;
  return session.Emit(report::FormatRowsAs(a.common.format, trace.strings, rows, table,
                                           events.has_memory_records, context));
}

}  // namespace profana::run
