// Which allocator a [memory] record's device type (c10::DeviceType) reports: CPU memory is CPU,
// MKLDNN and IDEEP (0, 2, 5); device memory is CUDA, HIP and PrivateUse1 (1, 6, 20). Others are
// neither. On the CPU, Total Allocated is c10's ProfiledCPUMemoryReporter's count, which only
// counts allocations made while memory profiling is on (c10/core/CPUAllocator.cpp); a device's
// caching allocator counts every allocation of the process.
#pragma once

#include <cstdint>

namespace profana::passes {

inline bool IsCpuMemory(int8_t device_type) {
  return device_type == 0 || device_type == 2 || device_type == 5;
}
inline bool IsDeviceMemory(int8_t device_type) {
  return device_type == 1 || device_type == 6 || device_type == 20;
}

}  // namespace profana::passes
