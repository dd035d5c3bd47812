#include "profana/job/trace_table.h"

#include "fmt/format.h"
#include "profana/base/input_name.h"
#include "profana/passes/flops.h"

namespace profana::job {

std::vector<passes::AverageRow> TraceTableRows(const Trace& trace,
                                               const passes::FunctionEventList& events,
                                               const std::string& path, bool raw,
                                               const passes::KeyAverageOptions& keys,
                                               passes::SortKey sort, std::vector<LoadNote>* notes) {
  std::vector<passes::AverageRow> rows = passes::TableRows(trace, events, raw, keys, sort);
  if (passes::SortsByMissingDeviceTime(rows, sort))
    notes->push_back({LoadNote::Level::kWarning,
                      fmt::format("{}: no device time in the trace: sorting by it keeps the rows "
                                  "in the order they first appear",
                                  InputName(path))});
  if (passes::FlopsPromisedButMissing(trace))
    notes->push_back(
        {LoadNote::Level::kWarning,
         fmt::format("{}: recorded with_flops, but without the input shapes FLOP counts are made "
                     "from (record_shapes=True): no Total FLOPs column",
                     InputName(path))});
  return rows;
}

}  // namespace profana::job
