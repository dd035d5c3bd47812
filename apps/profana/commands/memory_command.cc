// profana memory: the memory timeline rebuilt from [memory] events: peaks, what was live at the
// peak, blocks never freed, pre-existing memory, per-op memory, and PyTorch's export formats; or,
// for an allocator snapshot (a pickle), its segments, blocks and history.
#include <algorithm>

#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/commands/snapshot_load.h"
#include "profana/passes/function_events.h"
#include "profana/passes/memory/snapshot_analysis.h"
#include "profana/passes/memory_timeline.h"
#include "profana/passes/memory_views.h"
#include "profana/reporters/memory_output.h"
#include "profana/reporters/snapshot_reporter.h"

namespace profana::app {
namespace {

struct MemoryArgs {
  CommonOptions common;
  std::string file;
  std::string device;
  bool by_op = false;
  int64_t top = 0;  // -n: its default is AddRowLimitOption's
};

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

Status RunSnapshot(const MemoryArgs& a, const InputFile& file, Context& ctx) {
  OutputFormat f = a.common.format;
  if (a.by_op || f == OutputFormat::kTimeline || f == OutputFormat::kRaw)
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: an allocator snapshot prints text, json, csv or html (--by-op, "
                              "timeline and raw are for traces)",
                              a.file));
  PROFANA_ASSIGN_OR_RETURN(AllocatorSnapshot s, LoadSnapshotForCommand(file, a.common, ctx));
  PROFANA_ASSIGN_OR_RETURN(int64_t device, passes::SelectSnapshotDevice(s, a.device));
  passes::SnapshotAnalysis analysis = passes::AnalyzeSnapshot(s, device);
  return Emit(report::FormatSnapshotAs(
                  f, s, analysis, {a.file, static_cast<int>(std::min<int64_t>(a.top, INT32_MAX))}),
              a.common, ctx);
}

Status RunMemory(const MemoryArgs& a, Context& ctx) {
  // One open of the file tells a snapshot from a trace, and reads either.
  std::optional<job::JobInput> input = job::SingleTraceInput({a.file});
  if (IsSnapshot(input)) return RunSnapshot(a, *input->file, ctx);
  OutputFormat format = a.common.format;
  if (a.by_op && format != OutputFormat::kText && format != OutputFormat::kJson &&
      format != OutputFormat::kCsv)
    return Status(ErrorCode::kInvalidArgument, "--by-op prints text, json or csv");
  std::optional<FunctionEventIndex> index;
  PROFANA_ASSIGN_OR_RETURN(Trace trace, input ? LoadForCommand(*input, a.common, ctx, &index)
                                              : LoadForCommand(a.file, a.common, ctx, &index));
  Stopwatch clock;
  PROFANA_ASSIGN_OR_RETURN(passes::FunctionEventList events,
                           BuildEventsForCommand(trace, index, a.file, a.common, ctx));
  ctx.log.Debug("function events: {} in {:.1f} ms", events.size(), clock.Lap());
  passes::MemoryTimeline t = passes::BuildMemoryTimeline(trace, events);
  ctx.log.Debug("memory timeline: {} records, {} blocks, {} devices in {:.1f} ms", t.size(),
                t.blocks.size(), t.devices.size(), clock.Lap());
  if (t.size() == 0 && !a.by_op && format != OutputFormat::kText) {
    std::string note = report::kNoMemoryNote;  // "the trace has ...", without the full stop
    note[0] = 't';
    ctx.log.Warn("{}: {}", InputName(a.file), note.substr(0, note.size() - 1));
  }
  PROFANA_ASSIGN_OR_RETURN(std::string out, Format(a, trace, events, t));
  ctx.log.Debug("formatted {} in {:.1f} ms", report::OutputFormatName(format), clock.Lap());
  return Emit(std::move(out), a.common, ctx);
}

}  // namespace

void RegisterMemoryCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<MemoryArgs>();
  CLI::App* cmd = app.add_subcommand(
      "memory",
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
  SetRun(cmd, ctx, args, RunMemory);
}

}  // namespace profana::app
