// The reports of `profana queue`: PyTorch's queue depth (one queue of launches and kernels) and
// the queue length per device and stream, as text, CSV (one row per change) and JSON (schema
// "profana.queue/1", docs/json.md). Formatting only: passes/gpu_evaluation and
// passes/gpu_streams compute the series.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profana/model/trace_names.h"
#include "profana/passes/gpu_evaluation.h"
#include "profana/passes/gpu_streams.h"
#include "profana/reporters/output_format.h"

namespace profana::report {

// A summary of the global queue, then one line per stream. `model` and `limit` are what
// ComputeStreamQueues was given; the text says which definition the numbers follow.
std::string FormatQueueText(TraceNames names, const passes::GpuEvaluation& evaluation,
                            const std::vector<passes::StreamQueue>& streams,
                            passes::QueueModel model = passes::QueueModel::kProfana,
                            int32_t limit = passes::kCudaLaunchQueueLimit);
// Every point of both series; times in microseconds from origin_ns (the trace's start).
std::string FormatQueueCsv(TraceNames names, int64_t origin_ns,
                           const passes::GpuEvaluation& evaluation,
                           const std::vector<passes::StreamQueue>& streams);
std::string FormatQueueJson(const std::string& input, TraceNames names, int64_t origin_ns,
                            const passes::GpuEvaluation& evaluation,
                            const std::vector<passes::StreamQueue>& streams,
                            passes::QueueModel model = passes::QueueModel::kProfana,
                            int32_t limit = passes::kCudaLaunchQueueLimit);

// The report in `format` (text, csv or json): the one choice of printer.
std::string FormatQueueAs(OutputFormat format, const std::string& input, TraceNames names,
                          int64_t origin_ns, const passes::GpuEvaluation& evaluation,
                          const std::vector<passes::StreamQueue>& streams, passes::QueueModel model,
                          int32_t limit);

}  // namespace profana::report
