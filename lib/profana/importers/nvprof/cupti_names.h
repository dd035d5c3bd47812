// Names for CUPTI's numeric codes as nvprof stores them: runtime API callback ids (the subset a
// profile of PyTorch meets; others print as "cudaRuntime#<cbid>"), driver API callback ids (the
// whole enum; cupti_driver_names.cc) and memcpy kinds.
#pragma once

#include <cstdint>
#include <string>

namespace profana::nvprof {

std::string RuntimeApiName(int64_t cbid);
// Kernel launch callbacks: cudaLaunch, cudaLaunchKernel (and _ptsz), cooperative launches,
// cudaGraphLaunch. A device activity correlated with another call is counted, not trusted.
bool IsLaunchCallback(int64_t cbid);
std::string DriverApiName(int64_t cbid);
// cuLaunchKernel and the other driver calls that launch kernels (Triton, CUDA graphs).
bool IsDriverLaunchCallback(int64_t cbid);
std::string MemcpyName(int64_t copy_kind);

}  // namespace profana::nvprof
