#include "profana/passes/efficiency/tensor_cores.h"

namespace profana::passes {
namespace {

constexpr std::string_view kPlugin = "TensorBoard plugin TC_Allowlist";

bool Contains(std::string_view name, std::string_view part) {
  return name.find(part) != std::string_view::npos;
}

// rocBLAS/hipBLASLt's Tensile kernels name their matrix instruction "_MI16x16x16x1_" (MFMA);
// kernels without one ("_MAC_") use the vector ALUs.
bool TensileMatrixInstruction(std::string_view name) {
  for (size_t at = name.find("_MI"); at != std::string_view::npos; at = name.find("_MI", at + 1))
    if (at + 3 < name.size() && name[at + 3] >= '1' && name[at + 3] <= '9') return true;
  return false;
}

// PyTorch's memory-efficient attention (fmha_cutlassF_f32_aligned_64x64_rf_sm80): Tensor Cores for
// 16-bit types, and for fp32 from sm80 on; fp32 before sm80 runs on the SIMT path.
bool MemoryEfficientAttentionUses(std::string_view name) {
  if (!Contains(name, "_f32_")) return true;
  return !Contains(name, "_sm50") && !Contains(name, "_sm70") && !Contains(name, "_sm75");
}

// "gemm" or "gemv" not inside "fbgemm" (fbgemm_gpu's embedding and quantization kernels).
bool NamesGemm(std::string_view name) {
  for (std::string_view part : {"gemm", "gemv"})
    for (size_t at = name.find(part); at != std::string_view::npos; at = name.find(part, at + 1))
      if (at < 2 || name.substr(at - 2, 2) != "fb") return true;
  return false;
}

bool NamesConvolution(std::string_view name) {
  for (std::string_view part : {"convolve", "conv1d", "conv2d", "conv3d", "3dconv", "scudnn"})
    if (Contains(name, part)) return true;
  return false;
}

bool NamesFp32(std::string_view name) {
  for (std::string_view part :
       {"sgemm", "scudnn", "_ffma_", "StridedBatched<float const>", "float, float, float, float"})
    if (Contains(name, part)) return true;
  return Contains(name, "Cijk_") && Contains(name, "_SB_");
}

}  // namespace

const std::vector<TensorCorePattern>& TensorCorePatterns() {
  static const std::vector<TensorCorePattern> patterns = {
      {"h884", kPlugin},
      {"s884", kPlugin},
      {"h1688", kPlugin},
      {"s1688", kPlugin},
      {"hmma", kPlugin},
      {"i8816", kPlugin},
      {"16816", kPlugin},
      {"dgrad_1x1_stride_2x2", kPlugin},
      {"first_layer_wgrad_kernel", kPlugin},
      {"conv1x1", kPlugin},
      {"conv2d_c1_k1", kPlugin},
      {"direct_group", kPlugin},
      {"xmma_implicit_gemm", kPlugin},
      {"xmma_sparse_conv", kPlugin},
      {"xmma_warp_specialized_implicit_gemm", kPlugin},
      {"xmma_gemm", kPlugin},
      {"xmma_sparse_gemm", kPlugin},
      {"c1688", kPlugin},
      {"_xmma_",
       "cuBLAS and cuDNN xmma kernels (sm80_xmma_fprop_implicit_gemm_..., sm90_xmma_...)"},
      {"wgmma", "Hopper warpgroup MMA (cuDNN's sdpa and other sm90 kernels)"},
      {"imma", "integer MMA (turing_imma..., ampere_i16832...)"},
      {"nvjet", "cuBLAS's Hopper and Blackwell GEMM kernels (nvjet_tst_...)"},
      {"tensorop", "CUTLASS kernel names (cutlass_80_tensorop_..., cutlass_tensorop_...)"},
      {"MmaTensorOp", "CUTLASS warp-level MMA in mangled names"},
      {"flash_fwd", "FlashAttention-2 (16-bit types, mma.sync)"},
      {"flash_bwd", "FlashAttention-2 (16-bit types, mma.sync)"},
      {"fmhaSm", "TensorRT-LLM's fused attention for sm90/sm100 (fmhaSm100aKernel_...)"},
      {"bmm_", "TensorRT-LLM's batched GEMM kernels (bmm_Bfloat16_..._sm100f)"},
      {"fmha_cutlass", "PyTorch's memory-efficient attention (see MemoryEfficientAttentionUses)"},
      {"xdl", "AMD Composable Kernel XDLOPS (kernel_gemm_xdl_cshuffle...)"},
      {"FmhaFwd", "AMD Composable Kernel's tile attention (ck_tile::FmhaFwdKernel, MFMA)"},
      {"FmhaBwd", "AMD Composable Kernel's tile attention (ck_tile::FmhaBwd..., MFMA)"},
      {"gtcx", "MIOpen's implicit GEMM on XDLOPS (igemm_fwd_gtcx2_...)"},
      {"mfma", "AMD matrix fused multiply-add"},
      {"wmma", "WMMA on NVIDIA (cutlass_80_wmma_tensorop_...) and AMD RDNA"},
  };
  return patterns;
}

bool UsesTensorCores(std::string_view name) {
  // The FFMA / SIMT path, which some xmma and CUTLASS kernels of fp32 take.
  if (Contains(name, "_ffma_") || Contains(name, "simt")) return false;
  if (TensileMatrixInstruction(name)) return true;
  for (const TensorCorePattern& p : TensorCorePatterns()) {
    if (!Contains(name, p.text)) continue;
    if (p.text == "bmm_" && name.substr(0, 4) != "bmm_") continue;  // the prefix only
    if (p.text == "fmha_cutlass") return MemoryEfficientAttentionUses(name);
    return true;
  }
  return false;
}

MatmulKernel MatmulKernelOf(std::string_view name) {
  if (UsesTensorCores(name)) return MatmulKernel::kTensorCores;
  if (!NamesGemm(name) && !NamesConvolution(name) && !Contains(name, "Cijk_"))
    return MatmulKernel::kNone;
  return NamesFp32(name) ? MatmulKernel::kFp32 : MatmulKernel::kOther;
}

bool TensorCoreNames::Uses(StringId name) {
  if (known_.size() <= name.value) known_.resize(trace_.strings.size(), -1);
  int8_t& k = known_[name.value];
  if (k < 0) k = UsesTensorCores(trace_.str(name)) ? 1 : 0;
  return k == 1;
}

}  // namespace profana::passes
