// Which kernels run on Tensor Cores (NVIDIA) or matrix cores (AMD), told by the kernel's name: a
// trace records no instruction mix, and every tool that says this from a saved trace reads names.
// The rule, in one place (docs/semantics.md, "Tensor Cores"):
//  * a name holding one of the TensorBoard plugin's patterns (tb_plugin/torch_tb_profiler/profiler/
//    tensor_core.py, TC_Allowlist, itself from NVIDIA PyProf's tc.py), or one of the newer kernel
//    families' (kTensorCorePatterns lists each with its reason), uses them;
//  * except a name that says it takes the FFMA or SIMT path ("_ffma_", "simt"): cuBLAS and cuDNN
//    xmma kernels and CUTLASS kernels of fp32 without TF32 (the plugin counts those xmma kernels);
//  * PyTorch's memory-efficient attention (fmha_cutlass) uses them for 16-bit types, and for fp32
//    when built for sm80 or later (xformers' DefaultGemmType: 3xTF32); not for fp32 before sm80.
// A kernel whose name says nothing (Triton's, most attention kernels of other libraries) counts as
// not using them: the share is a lower bound.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "profana/model/trace.h"

namespace profana::passes {

struct TensorCorePattern {
  std::string_view text;    // a substring of the kernel name
  std::string_view reason;  // where the pattern comes from
};
// Every pattern, the plugin's first.
const std::vector<TensorCorePattern>& TensorCorePatterns();

bool UsesTensorCores(std::string_view kernel_name);

// What a kernel's name says of the matrix work it does, for the advice on matmuls:
//  * kTensorCores: UsesTensorCores;
//  * kFp32: a GEMM, GEMV or convolution of fp32 on the FFMA path: cuBLAS's and cuDNN's sgemm and
//    scudnn kernels (ampere_sgemm_..., implicit_convolve_sgemm<float...>), xmma and CUTLASS
//    kernels of the FFMA/SIMT path, cuBLAS's templated GEMV and small GEMM kernels of float
//    (gemv2T_kernel_val<int, int, float, float, float, float...>, gemmSN_NN_kernel<float, ...
//    cublasGemvTensorStridedBatched<float const>...), Tensile's single-precision kernels without a
//    matrix instruction (Cijk_..._SB_..._MAC_);
//  * kOther: any other GEMM, GEMV or convolution ("gemm", "gemv", "convolve", "conv2d", "Cijk_"
//    in the name; fbgemm's kernels are not GEMMs): 16-bit, fp64 or complex types on the vector
//    units;
//  * kNone: not a matmul by its name.
enum class MatmulKernel : uint8_t { kNone, kTensorCores, kFp32, kOther };
MatmulKernel MatmulKernelOf(std::string_view kernel_name);

// UsesTensorCores for a trace's kernels, each distinct name looked at once.
class TensorCoreNames {
 public:
  explicit TensorCoreNames(const Trace& trace) : trace_(trace) {}
  bool Uses(StringId name);

 private:
  const Trace& trace_;
  std::vector<int8_t> known_;  // string id -> 1 uses, 0 does not, -1 not looked at
};

}  // namespace profana::passes
