// ComputeKeyAverages: PyTorch's EventList.key_averages() (and the raw function_events list,
// when a table is asked for un-averaged rows). Rows come in first-occurrence order over the
// function events, keyed by (name, node id, device type, is_legacy[, input shapes][, first N
// stack frames]), as PyTorch keys them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profana/base/status.h"
#include "profana/passes/function_events.h"

namespace profana::passes {

struct AverageRow {
  StringId key;  // the event name
  DeviceType device_type = DeviceType::kCPU;
  bool legacy = false;           // is_legacy: the row's device time counts in the CUDA total
  bool user_annotation = false;  // a GPU user annotation: a row, but not in the CUDA total
  // Any user annotation (a record_function label, ProfilerStep#N; on the CPU or a GPU user
  // annotation): a range around ops, not an op, so `diff` ranks it apart. PyTorch's
  // FunctionEvent.is_user_annotation (Kineto's USER_ANNOTATION and GPU_USER_ANNOTATION, and
  // record_function's USER_SCOPE).
  bool annotation = false;
  bool is_async = false;        // the first event's is_async: "CPU total %" prints 0
  StringId input_shapes;        // of the first event; meaningful only when shapes_shown
  bool shapes_shown = false;    // grouped by input shape, or a raw row: shapes are a list
  std::vector<StringId> stack;  // first N frames (all of them for raw rows)
  bool top_level = false;       // the first event has no CPU parent
  FnEventId first_event;
  int64_t count = 0;
  // Times as PyTorch computes and prints them: float microseconds, summed in event order.
  // They equal the nanosecond totals / 1000 except for float rounding, which decides the last
  // printed digit of legacy (float-timestamp) traces and the order of ties.
  double cpu_total_us = 0;
  double self_cpu_us = 0;
  double cuda_total_us = 0;
  double self_cuda_us = 0;
  // Exact totals, for JSON and CSV.
  int64_t cpu_total_ns = 0;
  int64_t self_cpu_ns = 0;
  int64_t cuda_total_ns = 0;
  int64_t self_cuda_ns = 0;
  int64_t cpu_memory = 0;
  int64_t self_cpu_memory = 0;
  int64_t cuda_memory = 0;
  int64_t self_cuda_memory = 0;
  // FunctionEvent.flops summed (passes/flops.h): PyTorch's count, whether or not the trace was
  // recorded with_flops.
  uint64_t flops = 0;

  // FunctionEventAvg.add: sums every total (the first event's fields stay). Returns the name of
  // a field whose exact sum does not fit in 64 bits ("count", "self_cpu_ns", ...), or null. The
  // rows of one trace always fit (model/trace_sums.h); merged ranks may not.
  const char* Accumulate(const AverageRow& other);
  // Whether the row's self device time counts in _build_table's "Self CUDA time total": device
  // rows other than GPU user annotations, and legacy rows (PyTorch 2.x's
  // sum_self_device_time_total).
  bool CountsInCudaTotal() const {
    return (device_type == DeviceType::kCUDA && !user_annotation) || legacy;
  }
};

struct KeyAverageOptions {
  bool group_by_input_shape = false;
  int group_by_stack_n = 0;
};

std::vector<AverageRow> ComputeKeyAverages(const Trace& trace, const FunctionEventList& events,
                                           const KeyAverageOptions& options);
// One row per function event, as function_events.table() prints them.
std::vector<AverageRow> RawEventRows(const Trace& trace, const FunctionEventList& events);
// PyTorch's total_average(): every row summed under the key "Total".
AverageRow TotalAverage(const std::vector<AverageRow>& rows);

}  // namespace profana::passes

namespace profana::passes {

// The attributes table(sort_by=...) accepts, as FunctionEventAvg names them.
enum class SortKey {
  kNone,
  kCpuTime,
  kCudaTime,
  kCpuTimeTotal,
  kCudaTimeTotal,
  kSelfCpuTimeTotal,
  kSelfCudaTimeTotal,
  kCpuMemoryUsage,
  kCudaMemoryUsage,
  kSelfCpuMemoryUsage,
  kSelfCudaMemoryUsage,
  kCount,
  kFlops,
};

// PyTorch's names ("self_cpu_time_total") and short aliases ("self_cpu"); an unknown name is
// kInvalidArgument listing SortKeyNames (base/named_values.h).
Result<SortKey> ParseSortKey(std::string_view text);
// The accepted names, for --help, completion and error messages.
const std::vector<std::string>& SortKeyNames();
// --sort's help: what it does, the keys and their aliases.
const char* SortKeyHelp();
// Python's sorted(key=attr, reverse=True): descending and stable.
void SortRows(std::vector<AverageRow>* rows, SortKey key);
// True when `sort` is a device-time key (cuda_time, cuda_time_total, self_cuda_time_total) and
// no row has device time: the sort then leaves the rows in the order they first appeared.
bool SortsByMissingDeviceTime(const std::vector<AverageRow>& rows, SortKey sort);
// The rows `profana table` shows: one per event (`raw`) or the key averages, sorted by `sort`.
std::vector<AverageRow> TableRows(const Trace& trace, const FunctionEventList& events, bool raw,
                                  const KeyAverageOptions& keys, SortKey sort);

}  // namespace profana::passes
