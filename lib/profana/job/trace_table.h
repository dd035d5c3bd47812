// The rows of `profana table` for one trace: key averages (or one row per event), sorted, with
// what the user should know about them as notes: a sort by device time in a trace without any,
// and a FLOPs column the trace promised (with_flops) but cannot give without input shapes.
#pragma once

#include <string>
#include <vector>

#include "profana/job/load_input.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"
#include "profana/passes/key_averages.h"

namespace profana::job {

// passes::TableRows; the warnings, naming the input (`path`), are appended to *notes.
std::vector<passes::AverageRow> TraceTableRows(const Trace& trace,
                                               const passes::FunctionEventList& events,
                                               const std::string& path, bool raw,
                                               const passes::KeyAverageOptions& keys,
                                               passes::SortKey sort, std::vector<LoadNote>* notes);

}  // namespace profana::job
