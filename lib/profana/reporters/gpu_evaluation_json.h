// The JSON that the reports of the GPU evaluation (queue, optimizable) share, under one set of
// keys (docs/json.md): its launch counts, and a list of its time intervals.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/base/json_writer.h"
#include "profana/passes/gpu_evaluation.h"

namespace profana::report {

// "launches", "kernels" and "launches_without_kernel", as members of the open object.
inline void WriteLaunchCounts(JsonWriter& w, const passes::GpuEvaluation& g) {
  w.Key("launches").Int(static_cast<int64_t>(g.launches));
  w.Key("kernels").Int(static_cast<int64_t>(g.kernels));
  w.Key("launches_without_kernel").Int(static_cast<int64_t>(g.launches_without_kernel));
}

// [{"start_us", "end_us"}, ...]: each interval in microseconds from origin_ns, as the value of the
// key just written.
inline void WriteIntervals(JsonWriter& w, const std::vector<passes::TimeInterval>& intervals,
                           int64_t origin_ns) {
  w.BeginArray();
  for (const passes::TimeInterval& i : intervals) {
    w.BeginObject();
    w.Key("start_us").Micros(i.start_ns - origin_ns);
    w.Key("end_us").Micros(i.end_ns - origin_ns);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace profana::report
