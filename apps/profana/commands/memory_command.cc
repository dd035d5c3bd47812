// profana memory: the memory timeline rebuilt from [memory] events: peaks, what was live at the
// peak, blocks never freed, pre-existing memory, per-op memory, and PyTorch's export formats.
#include "fmt/format.h"
#include "profana/commands/commands.h"
#include "profana/commands/option_checks.h"
#include "profana/passes/function_events.h"
#include "profana/passes/memory_timeline.h"
#include "profana/reporters/memory_html.h"
#include "profana/reporters/memory_reporter.h"

namespace profana::app {
namespace {

struct MemoryArgs {
  CommonOptions common;
  std::string file;
  std::string device;
  bool by_op = false;
  int top = 10;
};

// The device the single-device formats draw when --device is not given: the accelerator with
// the highest peak, else the CPU.
uint32_t DefaultDevice(const passes::MemoryTimeline& t) {
  uint32_t best = 0;
  for (uint32_t d = 1; d < t.devices.size(); ++d) {
    bool d_acc = t.devices[d].type != 0, best_acc = t.devices[best].type != 0;
    if (d_acc != best_acc ? d_acc : t.summary[d].peak_bytes > t.summary[best].peak_bytes) best = d;
  }
  return best;
}

Status RunMemory(const MemoryArgs& a, Context& ctx) {
  OutputFormat format = a.common.format;
  if (a.by_op && format != OutputFormat::kText && format != OutputFormat::kJson &&
      format != OutputFormat::kCsv)
    return Status(ErrorCode::kInvalidArgument, "--by-op prints text, json or csv");
  PROFANA_ASSIGN_OR_RETURN(Trace trace, LoadForCommand(a.file, a.common, ctx));
  Stopwatch clock;
  passes::FunctionEventList events = passes::BuildFunctionEvents(trace);
  ctx.log.Debug("function events: {} in {:.1f} ms", events.size(), clock.Lap());
  passes::MemoryTimeline t = passes::BuildMemoryTimeline(trace, events);
  ctx.log.Debug("memory timeline: {} records, {} blocks, {} devices in {:.1f} ms", t.size(),
                t.blocks.size(), t.devices.size(), clock.Lap());

  std::vector<uint32_t> devices;
  if (!a.device.empty()) {
    int d = passes::FindMemoryDevice(t, a.device);
    if (d < 0) {
      std::string have;
      for (const auto& dev : t.devices)
        have += fmt::format("{}{}", have.empty() ? "" : ", ", dev.name);
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("--device {}: no memory records on it (devices: {})", a.device,
                                have.empty() ? "none" : have));
    }
    devices.push_back(static_cast<uint32_t>(d));
  } else {
    for (uint32_t d = 0; d < t.devices.size(); ++d) devices.push_back(d);
  }

  report::MemoryReportContext c;
  c.input = a.file;
  c.devices = devices;
  c.origin_ns = events.origin_ns;
  c.top = a.top;
  std::string out;
  if (a.by_op) {
    int device = a.device.empty() ? -1 : static_cast<int>(devices.front());
    std::string name = device < 0 ? "" : t.devices[device].name;
    std::vector<passes::MemoryOpRow> rows = passes::MemoryByOp(trace, events, t, device);
    out = format == OutputFormat::kJson  ? report::FormatByOpJson(trace, rows, a.file, name)
          : format == OutputFormat::kCsv ? report::FormatByOpCsv(trace, rows)
                                         : report::FormatByOpText(trace, rows, name);
  } else if (format == OutputFormat::kText) {
    out = report::FormatMemoryText(trace, events, t, c);
  } else if (format == OutputFormat::kJson) {
    out = report::FormatMemoryJson(trace, events, t, c);
  } else if (format == OutputFormat::kCsv) {
    out = report::FormatTimelineCsv(trace, t, c);
  } else {
    if (t.devices.empty())
      return Status(ErrorCode::kInvalidArgument, "the trace has no [memory] events");
    uint32_t d = a.device.empty() ? DefaultDevice(t) : devices.front();
    if (format == OutputFormat::kTimeline) {
      out = report::FormatTimelineJson(passes::CoalesceTimeline(trace, t, d));
    } else if (format == OutputFormat::kRaw) {
      out = report::FormatRawJson(passes::RawTimeline(trace, t, d));
    } else {
      report::MemoryHtmlOptions o;
      o.title = a.file == "-" ? "<stdin>" : a.file.substr(a.file.find_last_of('/') + 1);
      o.origin_ns = events.origin_ns;
      out = report::FormatMemoryHtml(trace, events, t, d, o);
    }
  }
  ctx.log.Debug("formatted {} in {:.1f} ms", report::OutputFormatName(format), clock.Lap());
  return Emit(std::move(out), a.common, ctx);
}

}  // namespace

void RegisterMemoryCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<MemoryArgs>();
  CLI::App* cmd = app.add_subcommand(
      "memory",
      "Memory timeline from [memory] events: peaks, live memory at the peak, leaks, per-op memory, "
      "PyTorch's export_memory_timeline formats");
  cmd->add_option("FILE", args->file,
                  "Trace file (Chrome-trace JSON, plain or gzip); - reads standard input")
      ->required();
  cmd->add_option(
      "--device", args->device,
      "Only this device (cpu, cuda:0, ...); timeline, raw and html draw the accelerator with the "
      "highest peak when it is not given");
  cmd->add_flag(
      "--by-op", args->by_op,
      "Per op name: calls, allocation count and bytes, freed bytes, size increase, self columns");
  cmd->add_option("--top", args->top, "Rows per grouped list in the text report")
      ->default_val(10)
      ->check(WholeNumber<int>("--top", 0).description(""));
  AddCommonOptions(cmd, &args->common,
                   {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kCsv,
                    OutputFormat::kTimeline, OutputFormat::kRaw, OutputFormat::kHtml});
  SetRun(cmd, ctx, args, RunMemory);
}

}  // namespace profana::app
