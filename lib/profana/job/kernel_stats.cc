#include "profana/job/kernel_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

#include "fmt/format.h"
#include "profana/base/int_sum.h"
#include "profana/job/step_breakdown.h"
#include "profana/passes/efficiency/device_efficiency.h"
#include "profana/passes/efficiency/tensor_cores.h"
#include "profana/passes/flops.h"

namespace profana::job {

const char* KernelCategoryName(KernelCategory c) {
  switch (c) {
    case KernelCategory::kComputation:
      return "computation";
    case KernelCategory::kCommunication:
      return "communication";
    case KernelCategory::kMemcpyHtoD:
      return "memcpy_htod";
    case KernelCategory::kMemcpyDtoH:
      return "memcpy_dtoh";
    case KernelCategory::kMemcpyDtoD:
      return "memcpy_dtod";
    case KernelCategory::kMemcpyHtoH:
      return "memcpy_htoh";
    case KernelCategory::kMemcpyPtoP:
      return "memcpy_ptop";
    case KernelCategory::kMemcpyOther:
      return "memcpy";
    case KernelCategory::kMemset:
      return "memset";
    case KernelCategory::kMixed:
      return "mixed";
  }
  return "computation";
}

bool IsTransfer(KernelCategory c) {
  return c >= KernelCategory::kMemcpyHtoD && c <= KernelCategory::kMemset;
}

bool LaunchShape::operator<(const LaunchShape& o) const {
  return std::lexicographical_compare(grid, grid + 3, o.grid, o.grid + 3) ||
         (std::equal(grid, grid + 3, o.grid) &&
          std::lexicographical_compare(block, block + 3, o.block, o.block + 3));
}

bool LaunchShape::operator==(const LaunchShape& o) const {
  return std::equal(grid, grid + 3, o.grid) && std::equal(block, block + 3, o.block);
}

namespace {

// The lowest and highest of the values other than -1 (not recorded).
void Widen(int32_t value, int32_t* lo, int32_t* hi) {
  if (value < 0) return;
  if (*lo < 0 || value < *lo) *lo = value;
  if (*hi < 0 || value > *hi) *hi = value;
}

}  // namespace

bool LaunchStat::Merge(const LaunchStat& o) {
  // The sums are merged aside and every shape checked before anything changes, so that a sum
  // that does not fit changes nothing. The aside copy leaves out the shapes: copying them on
  // every merge made a trace's statistics quadratic in its distinct durations.
  std::map<LaunchShape, DurationStats> own_shapes = std::move(shapes);
  LaunchStat m = *this;
  shapes = std::move(own_shapes);
  if (__builtin_add_overflow(m.blocks_per_sm_ns, o.blocks_per_sm_ns, &m.blocks_per_sm_ns) ||
      __builtin_add_overflow(m.occupancy_ns, o.occupancy_ns, &m.occupancy_ns) ||
      !CheckedAdd(&m.blocks_per_sm_weight_ns, o.blocks_per_sm_weight_ns) ||
      !CheckedAdd(&m.occupancy_weight_ns, o.occupancy_weight_ns) ||
      !CheckedAdd(&m.tensor_core_ns, o.tensor_core_ns) || !CheckedAdd(&m.bytes, o.bytes) ||
      !CheckedAdd(&m.bytes_ns, o.bytes_ns) || !CheckedAdd(&m.bytes_count, o.bytes_count))
    return false;
  Widen(o.registers_min, &m.registers_min, &m.registers_max);
  Widen(o.registers_max, &m.registers_min, &m.registers_max);
  Widen(o.shared_memory_min, &m.shared_memory_min, &m.shared_memory_max);
  Widen(o.shared_memory_max, &m.shared_memory_min, &m.shared_memory_max);
  for (const auto& [shape, d] : o.shapes)
    if (auto it = shapes.find(shape); it != shapes.end() && !it->second.CanMerge(d)) return false;
  m.shapes = std::move(shapes);
  *this = std::move(m);
  for (const auto& [shape, d] : o.shapes) shapes[shape].Merge(d);  // checked above: it fits
  return true;
}

bool LaunchStat::MeanBlocksPerSm(double* out) const {
  if (blocks_per_sm_weight_ns <= 0) return false;
  *out =
      static_cast<double>(blocks_per_sm_ns) / kUnit / static_cast<double>(blocks_per_sm_weight_ns);
  return true;
}

bool LaunchStat::MeanOccupancy(double* out) const {
  if (occupancy_weight_ns <= 0) return false;
  *out = static_cast<double>(occupancy_ns) / kUnit / static_cast<double>(occupancy_weight_ns);
  return true;
}

bool KernelStat::Merge(const KernelStat& o) {
  KernelCategory merged = category;
  if (duration.count() == 0)
    merged = o.category;
  else if (o.duration.count() > 0 && o.category != category)
    merged = KernelCategory::kMixed;
  int64_t sum_flops = flops;
  if (!CheckedAdd(&sum_flops, o.flops)) return false;
  // The duration is checked before the launch merges (it changes nothing when it fails): both
  // merge, or neither.
  if (!duration.CanMerge(o.duration) || !launch.Merge(o.launch)) return false;
  duration.Merge(o.duration);
  flops = sum_flops;
  category = merged;
  return true;
}

Status KernelStats::Merge(const KernelStats& o) {
  auto overflow = [](const char* what, const std::string& name) {
    return Status(ErrorCode::kMalformed,
                  fmt::format("{} \"{}\": its count, total or sum of squares passes what 64 "
                              "(128) bits hold once merged: the summaries' numbers cannot be right",
                              what, name));
  };
  for (const auto& [k, v] : o.kernels)
    if (!kernels[k].Merge(v)) return overflow("kernel", k);
  for (const auto& [k, v] : o.by_op)
    if (!by_op[k].Merge(v)) return overflow("the kernels of op", k);
  for (const auto& [k, v] : o.api)
    if (!api[k].Merge(v)) return overflow("call", k);
  return Status::Ok();
}

KernelCategory KernelCategoryOf(const Trace& t, uint32_t e) {
  MemoryOp op = MemoryOpOf(t, e);
  if (op == MemoryOp::kMemset) return KernelCategory::kMemset;
  if (op == MemoryOp::kMemcpy) {
    // The recorded direction, else the name's (Kineto: "Memcpy HtoD (Pinned -> Device)";
    // nvprof: "[CUDA memcpy HtoD]").
    switch (passes::CopyDirectionOf(t, e)) {
      case passes::CopyDirection::kHtoD:
        return KernelCategory::kMemcpyHtoD;
      case passes::CopyDirection::kDtoH:
        return KernelCategory::kMemcpyDtoH;
      case passes::CopyDirection::kDtoD:
        return KernelCategory::kMemcpyDtoD;
      case passes::CopyDirection::kHtoH:
        return KernelCategory::kMemcpyHtoH;
      case passes::CopyDirection::kPtoP:
        return KernelCategory::kMemcpyPtoP;
      default:
        return KernelCategory::kMemcpyOther;
    }
  }
  return CategoryOf(t, e) == DeviceCategory::kCommunication ? KernelCategory::kCommunication
                                                            : KernelCategory::kComputation;
}

namespace {

// One activity's launch record, as a LaunchStat of one without its shape, which goes to *shape
// (LaunchShape() when it has none): the caller counts it in place, with no map made per activity.
LaunchStat LaunchOf(const Trace& t, uint32_t e, int64_t dur, passes::TensorCoreNames* tensor,
                    LaunchShape* shape) {
  LaunchStat l;
  *shape = LaunchShape();
  if (t.events.kind[e] == ActivityKind::kKernel && tensor->Uses(t.events.trace_name[e]))
    l.tensor_core_ns = dur;
  uint32_t row = t.events.device_args[e];
  if (row == kNoDeviceArgs) return l;
  const DeviceArgsTable& a = t.device_args;
  // A value in millionths (below 2^53 for any value a trace holds sensibly), times the duration.
  auto weighted = [&](double value) {
    return static_cast<__int128>(std::llround(std::min(value * LaunchStat::kUnit, 9e15))) * dur;
  };
  double blocks = passes::BlocksPerSm(t, e);
  if (blocks >= 0) {
    l.blocks_per_sm_ns = weighted(blocks);
    l.blocks_per_sm_weight_ns = dur;
  }
  if (a.occupancy[row] >= 0) {
    l.occupancy_ns = weighted(a.occupancy[row]);
    l.occupancy_weight_ns = dur;
  }
  Widen(a.registers[row], &l.registers_min, &l.registers_max);
  Widen(a.shared_memory[row], &l.shared_memory_min, &l.shared_memory_max);
  if (t.events.kind[e] == ActivityKind::kKernel) {
    shape->grid[0] = a.grid_x[row], shape->grid[1] = a.grid_y[row];
    shape->grid[2] = a.grid_z[row];
    shape->block[0] = a.block_x[row], shape->block[1] = a.block_y[row];
    shape->block[2] = a.block_z[row];
  }
  if (a.bytes[row] >= 0) {
    l.bytes = a.bytes[row];
    l.bytes_ns = dur;
    l.bytes_count = 1;
  }
  return l;
}

// A row while the events are read: its durations gathered, added at the end (Finish) in ascending
// order, where adding each as it came made every add a walk to a random place of the row's maps
// (DurationStats::AddAll; the stats are the same).
struct PendingRow {
  KernelStat stat;
  std::vector<int64_t> durations;
  std::map<LaunchShape, std::vector<int64_t>> shape_durations;

  // One activity added, as KernelStat::Merge of a row of that activity alone would. Each
  // activity is added once into each map, so no sum passes what one trace's sums may reach
  // (durations and copy sizes up to 2^61 each, model/trace_sums.h): these merges fit.
  void Add(KernelCategory category, int64_t dur, const LaunchStat& launch,
           const LaunchShape& shape) {
    if (durations.empty())
      stat.category = category;
    else if (stat.category != category)
      stat.category = KernelCategory::kMixed;
    durations.push_back(dur);
    (void)stat.launch.Merge(launch);
    if (!(shape == LaunchShape())) shape_durations[shape].push_back(dur);
  }

  KernelStat Finish() {
    (void)stat.duration.AddAll(&durations);
    for (auto& [shape, durs] : shape_durations) (void)stat.launch.shapes[shape].AddAll(&durs);
    return std::move(stat);
  }
};

KernelStat Finish(PendingRow& row) { return row.Finish(); }

DurationStats Finish(std::vector<int64_t>& durations) {
  DurationStats stats;
  (void)stats.AddAll(&durations);
  return stats;
}

// Rows kept by string id while the events are read (no string made per event), then by name.
template <typename Pending, typename Row>
void MergeByName(const Trace& t, std::unordered_map<uint32_t, Pending>& by_id,
                 std::map<std::string, Row>* out, uint32_t none_id, const char* none_name) {
  for (auto& [id, pending] : by_id) {
    std::string name = id == none_id ? none_name : std::string(t.str(StringId(id)));
    Row row = Finish(pending);
    auto [it, added] = out->try_emplace(std::move(name), std::move(row));
    if (!added) (void)it->second.Merge(row);  // "(no op)" may also be an op's name
  }
}

}  // namespace

KernelStats ComputeKernelStats(const Trace& t, const passes::FunctionEventList& events) {
  const EventTable& ev = t.events;
  KernelStats out;
  passes::TensorCoreNames tensor(t);
  // The launching op of each kernel: the FunctionEvent whose kernel list holds it.
  std::vector<int32_t> op_of(ev.size(), -1);
  std::vector<bool> owns(events.size(), false);  // the op is some kernel's launching op
  for (uint32_t i = 0; i < events.size(); ++i) {
    if (events.device_type[i] != passes::DeviceType::kCPU) continue;
    for (uint32_t k = events.kernel_begin[i]; k < events.kernel_begin[i + 1]; ++k)
      op_of[events.kernel_index[k].value] = static_cast<int32_t>(i);
  }
  constexpr uint32_t kNoOp = UINT32_MAX;  // no string id is
  std::unordered_map<uint32_t, PendingRow> kernels, by_op;
  std::unordered_map<uint32_t, std::vector<int64_t>> api;
  for (uint32_t e = 0; e < ev.size(); ++e) {
    ActivityKind k = ev.kind[e];
    int64_t dur = ev.end_ns[e] - ev.start_ns[e];
    if (IsRuntimeOrDriver(k)) {
      api[ev.trace_name[e].value].push_back(dur);
      continue;
    }
    if (!IsDeviceWork(k)) continue;
    KernelCategory category = KernelCategoryOf(t, e);
    LaunchShape shape;
    LaunchStat launch = LaunchOf(t, e, dur, &tensor, &shape);
    kernels[ev.trace_name[e].value].Add(category, dur, launch, shape);
    uint32_t op = op_of[e] >= 0 ? events.name[op_of[e]].value : kNoOp;
    by_op[op].Add(category, dur, launch, shape);
    if (op_of[e] >= 0) owns[static_cast<uint32_t>(op_of[e])] = true;
  }
  MergeByName(t, kernels, &out.kernels, kNoOp, "");
  MergeByName(t, by_op, &out.by_op, kNoOp, "(no op)");
  MergeByName(t, api, &out.api, kNoOp, "");
  // Each op's FLOPs once, in the row of the op that owns its kernels.
  passes::EventFlops flops(t);
  if (!flops.any()) return out;
  for (uint32_t i = 0; i < events.size(); ++i) {
    if (!owns[i] || events.source[i] == passes::kSynthetic) continue;
    auto f = static_cast<int64_t>(std::min<uint64_t>(flops.Of(events.source[i]), INT64_MAX));
    int64_t& sum = out.by_op[std::string(t.str(events.name[i]))].flops;
    if (!CheckedAdd(&sum, f)) sum = INT64_MAX;
  }
  return out;
}

}  // namespace profana::job
