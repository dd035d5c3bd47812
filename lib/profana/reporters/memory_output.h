// `profana memory` in the format --format asks for: which views each format needs, and the
// formatter of each (text, json, csv, html; the by-op table as text, json or csv).
#pragma once

#include <string>
#include <vector>

#include "profana/model/trace.h"
#include "profana/passes/function_events.h"
#include "profana/passes/memory_timeline.h"
#include "profana/passes/memory_views.h"
#include "profana/reporters/memory_reporter.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

// The html page's title: the input's file name ("<stdin>" for "-").
std::string PageTitle(const std::string& file);

// The parts of each device's view (passes::kMemory*) the format prints.
unsigned MemoryViewParts(OutputFormat format);

// The report in text, json, csv (the timeline) or html (the first view; the page's title is the
// input's file name). It takes the Trace: the text and JSON read its memory records, stacks and
// metadata besides its names (memory_reporter.h).
std::string FormatMemoryAs(OutputFormat format, const Trace& trace,
                           const passes::FunctionEventList& events, const passes::MemoryTimeline& t,
                           const std::vector<passes::MemoryDeviceView>& views,
                           const MemoryReportContext& context);

// The output of a format that needs a device's records (timeline, raw, html) when there are
// none: an empty [times, sizes] or list, or a page that says so. `title`: the input's file name.
std::string FormatNoMemory(OutputFormat format, const std::string& title);

// The per-op table in text, json or csv; `device` names the one device it covers (empty: all).
std::string FormatByOpAs(OutputFormat format, const StringPool& strings,
                         const std::vector<passes::MemoryOpRow>& rows, const std::string& input,
                         const std::string& device);

}  // namespace profana::report
