// What every fuzz target does with a Trace its importer accepted: runs what each command runs on
// it, passes and reporters, in every format the command writes (table, tree, stacks with its
// SVG, queue, idle, optimizable, memory with its page, info, check, diff), so a value an
// importer lets through cannot crash (or overflow in) a pass or a report, and every JSON output
// parses as strict JSON (UTF-8 included). Only a trace the commands accept gets there: one whose
// sums fit (model/trace_sums.h, passes/event_sums.h). A native file's function event index comes
// along, as the commands use it.
// Header-only: each fuzz target is one translation unit plus the library.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

#include "profana/base/output_sink.h"
#include "profana/io/chrome_trace_writer.h"
#include "profana/model/trace.h"
#include "profana/model/trace_sums.h"
#include "profana/passes/event_counts.h"
#include "profana/passes/event_sums.h"
#include "profana/passes/event_times.h"
#include "profana/passes/flops.h"
#include "profana/passes/function_events.h"
#include "profana/passes/gpu_evaluation.h"
#include "profana/passes/gpu_streams.h"
#include "profana/passes/graph_launches.h"
#include "profana/passes/key_averages.h"
#include "profana/passes/memory/timeline_clock.h"
#include "profana/passes/memory_timeline.h"
#include "profana/passes/memory_views.h"
#include "profana/passes/optimizable_events.h"
#include "profana/passes/stacks.h"
#include "profana/passes/thread_roots.h"
#include "profana/passes/trace_diff.h"
#include "profana/passes/trace_validation.h"
#include "profana/reporters/check_reporter.h"
#include "profana/reporters/diff_reporter.h"
#include "profana/reporters/flamegraph_svg.h"
#include "profana/reporters/idle_reporter.h"
#include "profana/reporters/info_reporter.h"
#include "profana/reporters/memory_html.h"
#include "profana/reporters/memory_reporter.h"
#include "profana/reporters/optimizable_reporter.h"
#include "profana/reporters/queue_reporter.h"
#include "profana/reporters/rows_reporter.h"
#include "profana/reporters/stacks_reporter.h"
#include "profana/reporters/table_reporter.h"
#include "profana/reporters/tree_reporter.h"
#include "simdjson.h"

namespace profana::fuzz {

// An SVG or HTML page must stay well-formed: no control character but newline and tab.
inline void RequireNoControls(const std::string& page) {
  for (char c : page)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') || c == 0x7f) std::abort();
}

// What profana writes as JSON must read back: strict JSON, valid UTF-8.
inline void RequireJson(const std::string& text) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(simdjson::padded_string(text)).get(doc)) std::abort();
}

inline void RunReports(const Trace& trace, const std::optional<FunctionEventIndex>& index) {
  namespace p = profana::passes;
  namespace r = profana::report;
  const std::string input = "fuzz";
  if (!CheckSumsFit(trace, input).ok()) return;  // refused by every command
  // table (key averages, grouped and not; text, csv, json)
  p::FunctionEventList events = p::BuildFunctionEvents(trace, index, p::LinkRule::kAuto, true);
  if (!p::CheckEventSumsFit(trace, events, input).ok()) return;
  for (p::KeyAverageOptions keys : {p::KeyAverageOptions{false, 0}, {true, 5}}) {
    std::vector<p::AverageRow> rows = p::ComputeKeyAverages(trace, events, keys);
    p::SortRows(&rows, p::SortKey::kCpuTimeTotal);
    r::TableOptions table;
    table.profile_memory = events.has_memory_records;
    r::FormatTable(trace.strings, rows, table);
    std::vector<size_t> shown = r::ShownRows(rows, 100, false);
    r::FormatRowsCsv(trace.strings, rows, shown);
    r::RowsContext context;
    context.input = input;
    RequireJson(r::FormatRowsJson(trace.strings, rows, shown, context));
  }
  r::FormatTable(trace.strings, p::RawEventRows(trace, events), {});
  // tree
  {
    p::EventTimes times(trace, events);
    std::vector<p::ThreadRoots> threads = p::RootsByThread(trace, events, "");
    r::TreeReportOptions options;
    options.input = input;
    std::string text;
    StringSink sink(&text);
    (void)r::WriteTreeText(trace, events, times, threads, options, &sink);
    text.clear();
    (void)r::WriteTreeJson(trace, events, times, threads, options, &sink);
    RequireJson(text);
  }
  // stacks: per event, merged, SVG, JSON
  for (p::StackSource source : {p::StackSource::kAuto, p::StackSource::kBoth}) {
    p::StackSamples samples =
        p::ComputeStackSamples(trace, events, source, p::StackMetric::kSelfCuda);
    r::FormatCollapsed(trace.strings, samples, r::StackUnit::kMicros);
    auto merged = passes::MergeStacks(trace.strings, samples);
    r::FormatMerged(merged);
    r::FormatDiff(merged, merged);
    RequireNoControls(r::FormatFlamegraphSvg(merged, input));
    RequireJson(r::FormatStacksJson(input, p::StackMetric::kSelfCuda, samples.source,
                                    r::StackUnit::kMicros, merged));
  }
  // queue, idle, optimizable
  LaunchIndex launches(trace.events);
  p::GpuEvaluation eval = p::EvaluateGpu(trace, events, launches);
  std::vector<p::StreamQueue> streams = p::ComputeStreamQueues(trace, launches);
  r::FormatQueueText(trace, eval, streams);
  r::FormatQueueCsv(trace, events.origin_ns, eval, streams);
  RequireJson(r::FormatQueueJson(input, trace, events.origin_ns, eval, streams));
  std::vector<p::StreamQueue> hta = p::ComputeStreamQueues(trace, launches, p::QueueModel::kHta, 1);
  r::FormatQueueText(trace, eval, hta, p::QueueModel::kHta, 1);
  p::IdleBreakdown idle =
      p::ComputeIdleBreakdown(trace, events, launches, p::kHtaConsecutiveKernelDelayNs, 5);
  r::FormatIdleText(trace, events, idle, r::IdleTextOptions{5});
  r::FormatIdleCsv(trace, idle);
  RequireJson(r::FormatIdleJson(input, trace, events, idle));
  p::OptimizableEvents found = p::FindOptimizableEvents(trace, events, 10);
  r::FormatOptimizableText(trace.strings, events, found);
  RequireJson(r::FormatOptimizableJson(input, trace.strings, events, found));
  // memory: report, timeline, raw, by op, page
  p::MemoryTimeline memory = p::BuildMemoryTimeline(trace, events);
  if (auto devices = p::SelectMemoryDevices(memory, ""); devices.ok()) {
    r::MemoryReportContext c{input, events.origin_ns, 10};
    auto views = p::ViewMemoryDevices(trace, events, memory, *devices,
                                      p::kMemoryReport | p::kMemoryOps | p::kMemoryTimeline);
    r::FormatMemoryText(trace, events, memory, views, c);
    RequireJson(r::FormatMemoryJson(trace, events, memory, views, c));
    r::FormatTimelineCsv(memory, views);
    std::vector<p::MemoryOpRow> by_op = p::MemoryByOp(trace, events, memory, -1);
    r::FormatByOpText(trace.strings, by_op, "");
    r::FormatByOpCsv(trace.strings, by_op);
    RequireJson(r::FormatByOpJson(trace.strings, by_op, input, ""));
  }
  if (!memory.devices.empty()) {
    uint32_t device = p::DefaultMemoryDevice(memory);
    RequireJson(r::FormatTimelineJson(p::CoalesceTimeline(trace, memory, device)));
    RequireJson(r::FormatRawJson(p::RawTimeline(trace, memory, device)));
    auto views = p::ViewMemoryDevices(trace, events, memory, {device},
                                      p::kMemoryReport | p::kMemoryTimeline);
    RequireNoControls(r::FormatMemoryHtml(trace.strings, events, memory, views,
                                          {input, events.origin_ns, p::EpochShiftNs(trace)}));
  }
  // info, check, diff
  p::EventCounts summary = p::CountEvents(trace);
  p::GraphLaunchSummary graphs = p::SummarizeGraphLaunches(trace, events, launches);
  r::InfoStacks info_stacks{p::FindPythonStackSources(trace), p::CountPythonStacks(trace, events)};
  r::FormatInfoText(input, trace, summary, events, graphs, info_stacks);
  RequireJson(r::FormatInfoJson(input, trace, summary, events, graphs, info_stacks));
  p::EventFlops flops(trace);
  for (size_t e = 0; e < trace.events.size(); ++e) flops.Of(EventId(static_cast<uint32_t>(e)));
  std::vector<p::ValidationCheck> checks = p::ValidateTrace(trace, launches);
  r::FormatValidationText(input, checks, trace);
  RequireJson(r::FormatValidationJson(input, checks));
  p::TraceDiff diff = p::DiffTraces(trace, events, trace, events, {});
  r::DiffReportOptions d;
  d.base_name = d.new_name = input;
  r::FormatDiffText(diff, d);
  r::FormatDiffMarkdown(diff, d);
  r::FormatDiffCsv(diff, d);
  RequireJson(r::FormatDiffJson(diff, d));
  // convert to JSON
  RequireJson(io::WriteChromeTrace(trace));
}

inline void RunPasses(const Trace& trace) { RunReports(trace, std::nullopt); }

}  // namespace profana::fuzz
