// How well each device used a window of time (a step, or the steps' whole span): the TensorBoard
// profiler plugin's Est. SM Efficiency and Est. Achieved Occupancy, the time on Tensor Cores, and
// the copies' bytes by direction and host memory kind. Every figure is kept as a sum (a numerator
// and its weight), so windows, devices and ranks add up before a share is taken.
//
// The plugin's rules (pytorch/kineto tb_plugin/torch_tb_profiler/profiler/gpu_metrics_parser.py
// and range_utils.py), over the kernels of one device ("kernel" activities: NCCL kernels too):
//  * SM efficiency: each kernel whose blocks per SM is above 0 adds that value while it runs;
//    where the sum is above 0 the device counts min(sum, 1) (merge_ranges_with_value); the
//    integral over the window, divided by the window's length, is the efficiency
//    (calculate_approximated_sm_efficiency, whose window is the steps' span);
//  * occupancy: the mean of each kernel's "est. achieved occupancy %" weighted by the part of its
//    duration inside the window, over kernels that recorded one of 0 or more (calculate_occupancy);
//  * Tensor Core share: the kernel time (inside the window) of kernels that use Tensor Cores
//    (tensor_cores.h) over all kernel time (tensor_cores_parser.py's _calculate_tc_ratio).
// A kernel's blocks per SM is the trace's "blocks per SM"; where the trace records none (nsys,
// rocpd, nvprof, rpd) it is worked out as Kineto does, the grid's blocks over the device's SMs
// (deviceProperties' numSms, TARGET_INFO_GPU's smCount). Occupancy cannot be worked out without
// the occupancy calculator: only recorded values count.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/model/trace.h"

namespace profana::passes {

// Copies as the reports group them: by direction, and memsets.
enum class CopyDirection : uint8_t { kHtoD, kDtoH, kDtoD, kHtoH, kPtoP, kOther, kMemset };
constexpr size_t kCopyDirections = 7;
// "htod", "dtoh", "dtod", "htoh", "ptop", "other" (arrays, or no direction), "memset"
const char* CopyDirectionName(CopyDirection d);
// A memcpy's or memset's direction: its recorded copy kind, else what its name says.
CopyDirection CopyDirectionOf(const Trace& trace, uint32_t event);

// A kernel's blocks per SM (recorded, else its grid's blocks over its device's SMs), or -1.
double BlocksPerSm(const Trace& trace, uint32_t event);
// A kernel's recorded "est. achieved occupancy %", or -1.
double OccupancyOf(const Trace& trace, uint32_t event);
// A copy's or memset's recorded bytes, or -1.
int64_t BytesOf(const Trace& trace, uint32_t event);

struct CopyTotals {
  int64_t count[kCopyDirections] = {};
  int64_t bytes[kCopyDirections] = {};  // of the copies that recorded their size
  int64_t ns[kCopyDirections] = {};     // durations of those copies: bandwidth = bytes / ns (GB/s)
  int64_t pageable_bytes = 0;           // host side of copies from or to pageable memory
  int64_t pinned_bytes = 0;             // ... to or from pinned memory
  void Add(const CopyTotals& o);
};

// How one device used a window, as sums.
struct DeviceUse {
  int64_t kernel_ns = 0;       // kernel time inside the window (summed over kernels)
  int64_t tensor_core_ns = 0;  // of which kernels on Tensor Cores
  // The integral of min(sum of running kernels' blocks per SM, 1) over the window, in ns; -1 when
  // no kernel of the device has a blocks per SM (the plugin then shows no SM efficiency).
  double sm_busy_ns = -1;
  double occupancy_ns = 0;          // sum of occupancy (%) x duration inside the window
  int64_t occupancy_weight_ns = 0;  // the durations of the kernels that recorded occupancy
  CopyTotals copies;                // copies and memsets that start inside the window
  // The FLOPs of the ops whose first kernel on the device starts inside the window (op_flops.h),
  // and the time they take at the device's peak for each op's type, in ns: MFU is
  // peak_ns / the window. unpeaked_flops: of `flops`, those of ops without a peak (an integer
  // type, or a device not in the peak table); MFU leaves them out.
  double flops = 0;
  double peak_ns = 0;
  double unpeaked_flops = 0;
};

struct WindowEfficiency {
  int32_t device = -1;
  DeviceUse use;
};

struct TimeWindow {
  int64_t start = 0, end = 0;  // [start, end)
};

// For each window (in start order, not overlapping), one entry per device with device work in
// the window, by device number.
std::vector<std::vector<WindowEfficiency>> ComputeWindowEfficiency(
    const Trace& trace, const std::vector<TimeWindow>& windows);

}  // namespace profana::passes
