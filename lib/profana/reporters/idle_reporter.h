// The reports of `profana idle`: GPU idle time per device and stream split into host wait,
// kernel wait and other, and the longest gaps with the op the CPU was in; as text, CSV and JSON
// (schema "profana.idle/1", docs/json.md). Formatting only: passes/gpu_streams computes it.
#pragma once

#include <optional>
#include <string>

#include "profana/model/trace_names.h"
#include "profana/passes/function_events.h"
#include "profana/passes/gpu_streams.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

// How the text names things in its longest gaps: the activity after the gap (a kernel name,
// shortened as `kernels` shortens it unless full_names) and the op the CPU was in, each cut to
// max_name_width code points (unset or no_truncate: never cut; each name ends its line, so no
// column needs it).
struct IdleTextOptions {
  int gaps_asked = 10;  // how many longest gaps were asked for (the heading says it)
  std::optional<int> max_name_width;
  bool no_truncate = false;
  bool full_names = false;
};

// Without device activity: one line that says so instead of the table.
std::string FormatIdleText(TraceNames names, const passes::FunctionEventList& events,
                           const passes::IdleBreakdown& breakdown, const IdleTextOptions& options);
std::string FormatIdleCsv(TraceNames names, const passes::IdleBreakdown& breakdown);
std::string FormatIdleJson(const std::string& input, TraceNames names,
                           const passes::FunctionEventList& events,
                           const passes::IdleBreakdown& breakdown);

// The report in `format` (text, csv or json): the one choice of printer.
std::string FormatIdleAs(OutputFormat format, const std::string& input, TraceNames names,
                         const passes::FunctionEventList& events,
                         const passes::IdleBreakdown& breakdown, const IdleTextOptions& options);

}  // namespace profana::report
