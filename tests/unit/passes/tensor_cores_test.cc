// Tensor Core use by kernel name (passes/efficiency/tensor_cores.h) on every kernel name of every
// real GPU trace in testdata/: testdata/tensor_cores/kernel_verdicts.tsv.gz lists each name with
// its verdict, reviewed by hand, and every kernel of those traces must be in it.
#include "profana/passes/efficiency/tensor_cores.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "fixtures.h"
#include "profana/base/input_buffer.h"
#include "profana/importers/importer.h"
#include "test_util.h"

using namespace profana;

namespace {

// "yes\tNAME" or "no\tNAME" per line.
std::map<std::string, bool> Verdicts() {
  auto input = ReadInput(test::TestData("tensor_cores/kernel_verdicts.tsv.gz"));
  REQUIRE(input.ok());
  std::string_view text = input->view();
  std::map<std::string, bool> out;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    size_t tab = line.find('\t');
    REQUIRE(tab != std::string_view::npos);
    std::string_view verdict = line.substr(0, tab);
    REQUIRE((verdict == "yes" || verdict == "no"));
    REQUIRE(out.emplace(std::string(line.substr(tab + 1)), verdict == "yes").second);
  }
  return out;
}

}  // namespace

TEST_CASE("Tensor Cores: the verdict on every kernel name of the real traces", "[efficiency]") {
  std::map<std::string, bool> verdicts = Verdicts();
  REQUIRE(verdicts.size() > 800);
  size_t yes = 0;
  for (const auto& [name, uses] : verdicts) {
    INFO(name);
    CHECK(passes::UsesTensorCores(name) == uses);
    yes += uses;
  }
  CHECK(yes > 150);
  size_t traces = 0, missing = 0;
  for (const std::string& file : test::RealTraceFiles()) {
    auto loaded = LoadTrace(file);
    if (!loaded.ok()) continue;
    const Trace& t = loaded->trace;
    bool kernels = false;
    for (uint32_t e = 0; e < t.events.size(); ++e) {
      if (t.events.kind[e] != ActivityKind::kKernel) continue;
      kernels = true;
      std::string name(t.str(t.events.trace_name[e]));
      if (verdicts.count(name)) continue;
      INFO(file << ": " << name);
      CHECK(verdicts.count(name) == 1);
      ++missing;
    }
    traces += kernels;
  }
  CHECK(traces >= 40);
  CHECK(missing == 0);
}

TEST_CASE("Tensor Cores: the newer kernel families and the FFMA path", "[efficiency]") {
  using passes::UsesTensorCores;
  CHECK(UsesTensorCores("nvjet_tst_64x64_64x16_2x1_2cta_v_bz_bias_TNT"));
  CHECK(UsesTensorCores("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64"));
  CHECK_FALSE(UsesTensorCores(
      "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4"));
  CHECK(UsesTensorCores("cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align8"));
  CHECK_FALSE(UsesTensorCores("void cutlass::Kernel<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>"));
  CHECK(UsesTensorCores("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7"));
  CHECK(UsesTensorCores("Cijk_Ailk_Bljk_BBS_BH_MT32x32x64_MI16x16x16x1_SN_1LDSB0"));
  CHECK_FALSE(UsesTensorCores("Cijk_Ailk_Bljk_SB_MT64x64x8_SN_MAC_"));
  CHECK(UsesTensorCores("_ZN2ck16tensor_operation6device37kernel_batched_gemm_xdlops_bwd_weight"));
  CHECK(UsesTensorCores("fmha_cutlassF_f32_aligned_64x64_rf_sm80(...)"));
  CHECK_FALSE(UsesTensorCores("fmha_cutlassF_f32_aligned_64x64_rf_sm50(...)"));
  CHECK(UsesTensorCores("fmha_cutlassF_f16_aligned_64x64_rf_sm75(...)"));
  CHECK(UsesTensorCores("bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x16x256u2_s3_sm100f"));
  CHECK_FALSE(UsesTensorCores("void at::native::bmm_out_kernel(float*)"));
  CHECK_FALSE(UsesTensorCores("triton_tem_fused_mm_0"));  // the name does not say
  CHECK_FALSE(UsesTensorCores("ampere_sgemm_128x64_nn"));
  CHECK(UsesTensorCores("volta_h884gemm_64x64_ldg8_nn"));
}

TEST_CASE("Tensor Cores: matmul kernels by what their names say", "[efficiency][advise]") {
  using passes::MatmulKernel;
  using passes::MatmulKernelOf;
  // Names from the real traces (kernel_verdicts.tsv.gz).
  CHECK(MatmulKernelOf("ampere_sgemm_128x64_nn") == MatmulKernel::kFp32);
  CHECK(MatmulKernelOf("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_stage3_warpsize1x2x1_"
                       "ffma_aligna4_alignc4_execute_kernel__5x_cublas") == MatmulKernel::kFp32);
  CHECK(MatmulKernelOf("void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nn_align1>("
                       "cutlass_80_simt_sgemm_64x64_8x5_nn_align1::Params)") ==
        MatmulKernel::kFp32);
  CHECK(MatmulKernelOf("void implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false, "
                       "true, true>(int, int, int, float const*, int, float*)") ==
        MatmulKernel::kFp32);
  CHECK(MatmulKernelOf("cudnn_infer_volta_scudnn_128x64_3dconv_fprop_medium_nn_v1") ==
        MatmulKernel::kFp32);
  CHECK(MatmulKernelOf("void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, "
                       "4, false, false, cublasGemvParams<cublasGemvTensorStridedBatched<float "
                       "const>>>") == MatmulKernel::kFp32);
  CHECK(MatmulKernelOf("void gemv2T_kernel_val<int, int, double, double, double, double, (int)128, "
                       "(int)16, (int)4, (int)4, (bool)0, (bool)0>") == MatmulKernel::kOther);
  CHECK(MatmulKernelOf("void gemmk1_kernel<float, 256, 5, false, false, false, false, "
                       "cublasGemvTensorStridedBatched<__half const>>") == MatmulKernel::kOther);
  CHECK(MatmulKernelOf("ampere_gcgemm_64x64_nt") == MatmulKernel::kOther);
  CHECK(MatmulKernelOf("nvjet_tst_64x64_64x16_2x1_2cta_v_bz_bias_TNT") ==
        MatmulKernel::kTensorCores);
  CHECK(MatmulKernelOf("Cijk_Ailk_Bljk_SB_MT64x64x8_SN_MAC_") == MatmulKernel::kFp32);
  // fbgemm's kernels and cuDNN's type conversions are not matmuls.
  CHECK(MatmulKernelOf("void fbgemm_gpu::_offsets_range_cuda_kernel<int>(long, long, int const*, "
                       "int*)") == MatmulKernel::kNone);
  CHECK(MatmulKernelOf("void cudnn::fusion::convert_dq_to_16bits<true>(void const*, void*)") ==
        MatmulKernel::kNone);
  CHECK(MatmulKernelOf("triton_tem_fused_mm_0") == MatmulKernel::kNone);
}
