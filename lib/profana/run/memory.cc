#include "profana/run/memory.h"

#include "fmt/format.h"
#include "profana/job/run_job.h"
#include "profana/passes/function_events.h"
#include "profana/passes/memory/snapshot_analysis.h"
#include "profana/passes/memory_timeline.h"
#include "profana/passes/memory_views.h"
#include "profana/reporters/memory_output.h"
#include "profana/reporters/snapshot_reporter.h"
#include "profana/run/command_load.h"
#include "profana/run/snapshot_load.h"

namespace profana::run {
namespace {

Result<std::string> Format(const MemoryArgs& a, const Trace& trace,
                           const passes::FunctionEventList& events,
                           const passes::MemoryTimeline& t) {
  PROFANA_ASSIGN_OR_RETURN(std::vector<uint32_t> devices, passes::SelectMemoryDevices(t, a.device));
  OutputFormat f = a.common.format;
  if (a.by_op)
    return report::FormatByOpAs(
        f, trace.strings,
        passes::MemoryByOp(trace, events, t, a.device.empty() ? -1 : devices.front()), a.file,
        a.device.empty() ? "" : t.devices[devices.front()].name);
  if (f == OutputFormat::kTimeline || f == OutputFormat::kRaw || f == OutputFormat::kHtml) {
    if (t.devices.empty()) return report::FormatNoMemory(f, report::PageTitle(a.file));
    uint32_t shown = a.device.empty() ? passes::DefaultMemoryDevice(t) : devices.front();
    // html: every selected device, the default first (its selector switches); others: that one.
    if (f != OutputFormat::kHtml) devices = {shown};
    std::stable_partition(devices.begin(), devices.end(), [&](uint32_t d) { return d == shown; });
    if (f == OutputFormat::kTimeline)
      return report::FormatTimelineJson(passes::CoalesceTimeline(trace, t, devices[0]));
    if (f == OutputFormat::kRaw)
      return report::FormatRawJson(passes::RawTimeline(trace, t, devices[0]));
  }
  auto views = passes::ViewMemoryDevices(trace, events, t, devices, report::MemoryViewParts(f));
  return report::FormatMemoryAs(
      f, trace, events, t, views,
      {a.file, events.origin_ns, static_cast<int>(std::min<int64_t>(a.top, INT32_MAX))});
}

Status RunSnapshot(const MemoryArgs& a, const InputFile& file, Session& session) {
  OutputFormat f = a.common.format;
  if (a.by_op || f == OutputFormat::kTimeline || f == OutputFormat::kRaw)
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: an allocator snapshot prints text, json, csv or html (--by-op, "
                              "timeline and raw are for traces)",
                              a.file));
  PROFANA_ASSIGN_OR_RETURN(AllocatorSnapshot s, LoadSnapshotForCommand(file, a.common, session));
  PROFANA_ASSIGN_OR_RETURN(int64_t device, passes::SelectSnapshotDevice(s, a.device));
  passes::SnapshotAnalysis analysis = passes::AnalyzeSnapshot(s, device);
  return session.Emit(report::FormatSnapshotAs(
      f, s, analysis, {a.file, static_cast<int>(std::min<int64_t>(a.top, INT32_MAX))}));
}

}  // namespace

Status RunMemory(const MemoryArgs& a, Session& session) {
  // One open of the file tells a snapshot from a trace, and reads either (or a summary file, which
  // its load refuses).
  job::SniffedInputs sniffed = job::SniffInputs({a.file});
  if (IsSnapshot(sniffed.single)) return RunSnapshot(a, *sniffed.single->file, session);
  job::JobInput input = sniffed.single ? std::move(*sniffed.single) : job::InputOfPath(a.file);
  if (!input.file) input.file = std::move(sniffed.summary);
  OutputFormat format = a.common.format;
  if (a.by_op && format != OutputFormat::kText && format != OutputFormat::kJson &&
      format != OutputFormat::kCsv)
    return Status(ErrorCode::kInvalidArgument, "--by-op prints text, json or csv");
  CommonOptions common = a.common;
  common.unread = job::MemoryUnread();
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(input, common, session, &index));
  Stopwatch clock;
  PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                           BuildEventsForCommand(trace, index, a.file, common, session));
  session.Debug("function events: {} in {:.1f} ms", events.size(), clock.Lap());
  passes::MemoryTimeline t = passes::BuildMemoryTimeline(trace, events);
  session.Debug("memory timeline: {} records, {} blocks, {} devices in {:.1f} ms", t.size(),
                t.blocks.size(), t.devices.size(), clock.Lap());
  if (t.size() == 0 && !a.by_op && format != OutputFormat::kText) {
    std::string note = report::kNoMemoryNote;  // "the trace has ...", without the full stop
    note[0] = 't';
    session.Warn("{}: {}", InputName(a.file), note.substr(0, note.size() - 1));
  }
  PROFANA_ASSIGN_OR_RETURN(std::string out, Format(a, trace, events, t));
  session.Debug("formatted {} in {:.1f} ms", report::OutputFormatName(format), clock.Lap());
  return session.Emit(std::move(out));
}

}  // namespace profana::run
