#include "profana/importers/nvprof/cupti_names.h"

#include <utility>

namespace profana::nvprof {
namespace {

// CUPTI_RUNTIME_TRACE_CBID_* (cupti_runtime_cbid.h), the calls PyTorch programs make.
constexpr std::pair<int64_t, const char*> kRuntimeNames[] = {
    {3, "cudaGetDeviceCount"},
    {4, "cudaGetDeviceProperties"},
    {10, "cudaGetLastError"},
    {13, "cudaLaunch"},
    {16, "cudaSetDevice"},
    {17, "cudaGetDevice"},
    {20, "cudaMalloc"},
    {22, "cudaFree"},
    {25, "cudaMallocHost"},
    {26, "cudaFreeHost"},
    {27, "cudaHostAlloc"},
    {30, "cudaMemGetInfo"},
    {31, "cudaMemcpy"},
    {32, "cudaMemcpy2D"},
    {41, "cudaMemcpyAsync"},
    {44, "cudaMemcpy2DAsync"},
    {49, "cudaMemset"},
    {51, "cudaMemsetAsync"},
    {126, "cudaThreadSynchronize"},
    {129, "cudaStreamCreate"},
    {130, "cudaStreamDestroy"},
    {131, "cudaStreamSynchronize"},
    {132, "cudaStreamQuery"},
    {133, "cudaEventCreate"},
    {134, "cudaEventCreateWithFlags"},
    {135, "cudaEventRecord"},
    {136, "cudaEventDestroy"},
    {137, "cudaEventSynchronize"},
    {138, "cudaEventQuery"},
    {139, "cudaEventElapsedTime"},
    {147, "cudaStreamWaitEvent"},
    {151, "cudaPointerGetAttributes"},
    {152, "cudaHostRegister"},
    {153, "cudaHostUnregister"},
    {154, "cudaDeviceCanAccessPeer"},
    {155, "cudaDeviceEnablePeerAccess"},
    {160, "cudaMemcpyPeer"},
    {161, "cudaMemcpyPeerAsync"},
    {165, "cudaDeviceSynchronize"},
    {197, "cudaStreamAddCallback"},
    {198, "cudaStreamCreateWithFlags"},
    {200, "cudaDeviceGetAttribute"},
    {201, "cudaStreamDestroy"},
    {202, "cudaStreamCreateWithPriority"},
    {205, "cudaDeviceGetStreamPriorityRange"},
    {206, "cudaMallocManaged"},
    {207, "cudaOccupancyMaxActiveBlocksPerMultiprocessor"},
    {210, "cudaOccupancyMaxActiveBlocksPerMultiprocessor"},
    {211, "cudaLaunchKernel"},
    {212, "cudaGetDeviceFlags"},
    {213, "cudaLaunch_ptsz"},
    {214, "cudaLaunchKernel_ptsz"},
    {215, "cudaMemcpy_ptds"},
    {225, "cudaMemcpyAsync_ptsz"},
    {233, "cudaMemset_ptds"},
    {235, "cudaMemsetAsync_ptsz"},
    {239, "cudaStreamSynchronize_ptsz"},
    {242, "cudaEventRecord_ptsz"},
    {247, "cudaStreamWaitEvent_ptsz"},
    {251, "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags"},
    {269, "cudaLaunchCooperativeKernel"},
    {270, "cudaLaunchCooperativeKernel_ptsz"},
    {272, "cudaLaunchCooperativeKernelMultiDevice"},
    {273, "cudaFuncSetAttribute"},
    {311, "cudaGraphLaunch"},
    {312, "cudaGraphLaunch_ptsz"},
    {317, "cudaStreamIsCapturing"},
};

constexpr int64_t kLaunchCallbacks[] = {13, 211, 213, 214, 269, 270, 272, 311, 312};

}  // namespace

std::string RuntimeApiName(int64_t cbid) {
  for (const auto& [id, name] : kRuntimeNames)
    if (id == cbid) return name;
  return "cudaRuntime#" + std::to_string(cbid);
}

bool IsLaunchCallback(int64_t cbid) {
  for (int64_t id : kLaunchCallbacks)
    if (id == cbid) return true;
  return false;
}

std::string MemcpyName(int64_t kind) {
  // CUpti_ActivityMemcpyKind.
  static const char* const kKinds[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                       "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
  if (kind >= 0 && kind < static_cast<int64_t>(sizeof(kKinds) / sizeof(kKinds[0])))
    return std::string("Memcpy ") + kKinds[kind];
  return "Memcpy #" + std::to_string(kind);
}

}  // namespace profana::nvprof
