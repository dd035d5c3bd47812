// Kernel, API and transfer statistics of one rank (what nsys stats prints as cuda_gpu_kern_sum,
// cuda_api_sum and cuda_gpu_mem_time_sum): per kernel name, per launching op, per runtime or
// driver call, each with its category and DurationStats. Keyed by name in ordered maps, so a
// merge of several ranks is keyed the same way in any order.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "profana/base/status.h"
#include "profana/job/duration_stats.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"

namespace profana::job {

enum class KernelCategory : uint8_t {
  kComputation,
  kCommunication,  // NCCL/RCCL kernels
  kMemcpyHtoD,
  kMemcpyDtoH,
  kMemcpyDtoD,
  kMemcpyHtoH,
  kMemcpyPtoP,
  kMemcpyOther,  // a copy whose name says no direction
  kMemset,
  kMixed,  // a --by-op row whose kernels are of several categories
};
const char* KernelCategoryName(KernelCategory c);  // "computation", "memcpy_htod", ...
bool IsTransfer(KernelCategory c);                 // memcpy or memset

// A kernel's grid and block (blocks and threads per dimension); -1 where not recorded.
struct LaunchShape {
  int32_t grid[3] = {-1, -1, -1};
  int32_t block[3] = {-1, -1, -1};
  bool operator<(const LaunchShape& o) const;
  bool operator==(const LaunchShape& o) const;
};

// What the activities of one row recorded about themselves (passes/efficiency/
// device_efficiency.h), as sums and ranges so that ranks merge in any order. The means are
// weighted by duration, over the activities that recorded the value (the TensorBoard plugin's
// kernel view weights the same way, but counts a kernel without the value as 0). The weighted
// sums are integers, each value in millionths (Kineto writes six decimals), so that a merge in
// any order gives the same sum to the last bit.
struct LaunchStat {
  static constexpr double kUnit = 1e6;  // millionths
  __int128 blocks_per_sm_ns = 0;        // sum of blocks per SM (millionths) x duration
  int64_t blocks_per_sm_weight_ns = 0;
  __int128 occupancy_ns = 0;  // sum of occupancy (%, millionths) x duration
  int64_t occupancy_weight_ns = 0;
  int64_t tensor_core_ns = 0;  // duration of the kernels on Tensor Cores
  int32_t registers_min = -1, registers_max = -1;
  int32_t shared_memory_min = -1, shared_memory_max = -1;
  std::map<LaunchShape, DurationStats> shapes;  // kernels by grid and block
  int64_t bytes = 0;                            // copies and memsets that recorded their size
  int64_t bytes_ns = 0;  // their duration: bandwidth = bytes / bytes_ns (GB/s)
  int64_t bytes_count = 0;
  // False, and this unchanged, when a sum does not fit.
  [[nodiscard]] bool Merge(const LaunchStat& o);
  // The duration-weighted means; false where nothing recorded the value.
  bool MeanBlocksPerSm(double* out) const;
  bool MeanOccupancy(double* out) const;
};

struct KernelStat {
  KernelCategory category = KernelCategory::kComputation;
  DurationStats duration;
  LaunchStat launch;
  // A by_op row: PyTorch's FLOP count (passes/flops.h) of the row's ops that own kernels, each
  // op once; achieved FLOP/s is it over the row's time. 0 for kernel rows.
  int64_t flops = 0;
  bool Merge(const KernelStat& o);  // false when the sums do not fit (DurationStats::Merge)
};

struct KernelStats {
  std::map<std::string, KernelStat> kernels;  // by kernel (or memcpy/memset) name
  std::map<std::string, KernelStat> by_op;    // by the op that launched them; "(no op)"
  std::map<std::string, DurationStats> api;   // runtime and driver calls, by name
  // An error naming the kernel, op or call whose sums would not fit in 64 bits.
  Status Merge(const KernelStats& o);
};

KernelCategory KernelCategoryOf(const Trace& trace, uint32_t event);
KernelStats ComputeKernelStats(const Trace& trace, const passes::FunctionEventList& events);

}  // namespace profana::job
