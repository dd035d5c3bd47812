// Short kernel names (passes/kernel_names.h) on real kernel names: those of the traces in
// testdata/ (testdata/tensor_cores/kernel_verdicts.tsv.gz lists them) and of a live GPT training
// session, whose short names must stay as distinct as the operations they run.
#include "profana/passes/kernel_names.h"

#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "profana/base/input_buffer.h"
#include "profana/importers/importer.h"
#include "test_util.h"

using namespace profana;
using passes::ShortKernelName;

TEST_CASE("short kernel names keep the operation of PyTorch's templated kernels",
          "[kernel_names]") {
  // From testdata/live/gpt_train (PyTorch 2.11, GCC's demangling).
  CHECK(ShortKernelName("void at::native::vectorized_elementwise_kernel<4, "
                        "at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int, "
                        "at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)") ==
        "void at::native::vectorized_elementwise_kernel<CUDAFunctor_add>(...)");
  CHECK(
      ShortKernelName(
          "void at::native::elementwise_kernel<128, 2, "
          "at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::"
          "TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() "
          "const::{lambda(float)#1}>(at::TensorIteratorBase&, "
          "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()"
          "() const::{lambda()#7}::operator()() const::{lambda(float)#1} const&)::{lambda(int)#1}>"
          "(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::"
          "TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() "
          "const::{lambda(float)#1}>(at::TensorIteratorBase&, "
          "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()"
          "() const::{lambda()#7}::operator()() const::{lambda(float)#1} "
          "const&)::{lambda(int)#1})") ==
      "void at::native::elementwise_kernel<gpu_kernel_impl_nocast<direct_copy_kernel_cuda>>(...)");
  CHECK(
      ShortKernelName(
          "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, "
          "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "
          "float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, "
          "float, 4, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
          "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda("
          "float, float)#1}>, unsigned int, float, 4, 4>)") ==
      "void at::native::reduce_kernel<ReduceOp<func_wrapper_t<sum_functor>>>(...)");
  // From kernel_verdicts.tsv.gz (EDG's demangling in Kineto's newer traces: (int)4, <unnamed>,
  // [lambda() (instance 1)]).
  CHECK(ShortKernelName(
            "void at::native::vectorized_elementwise_kernel<(int)8, "
            "at::native::GeluCUDAKernelImpl(at::TensorIteratorBase &, "
            "at::native::GeluType)::[lambda() (instance 1)]::operator ()() const::[lambda() "
            "(instance 4)]::operator ()() const::[lambda(c10::BFloat16) (instance 1)], "
            "std::array<char *, (unsigned long)2>>(int, T2, T3)") ==
        "void at::native::vectorized_elementwise_kernel<GeluCUDAKernelImpl>(...)");
  CHECK(ShortKernelName("void at::native::vectorized_elementwise_kernel<(int)4, "
                        "at::native::BinaryFunctor<bool, bool, bool, "
                        "at::native::BitwiseAndFunctor<bool>>, std::array<char *, (unsigned "
                        "long)3>>(int, T2, T3)") ==
        "void at::native::vectorized_elementwise_kernel<BinaryFunctor<BitwiseAndFunctor>>(...)");
  CHECK(ShortKernelName("void at::native::vectorized_elementwise_kernel<(int)4, "
                        "at::native::AUnaryFunctor<c10::Half, c10::Half, bool, "
                        "at::native::<unnamed>::CompareEqFunctor<c10::Half>>, std::array<char *, "
                        "(unsigned long)2>>(int, T2, T3)") ==
        "void at::native::vectorized_elementwise_kernel<AUnaryFunctor<CompareEqFunctor>>(...)");
  CHECK(
      ShortKernelName(
          "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
          "namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
          "at::native::detail::ClampLimits)::{lambda()#1}::operator()() "
          "const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> "
          ">(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, "
          "c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() "
          "const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>)") ==
      "void at::native::vectorized_elementwise_kernel<launch_clamp_scalar>(...)");
  // A foreach kernel: the functor family and, second, the operation.
  CHECK(ShortKernelName(
            "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::("
            "anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous "
            "namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::multiplies<float>, "
            "float>(at::native::(anonymous namespace)::TensorListMetadata<1>, "
            "at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, "
            "std::multiplies<float>, float)") ==
        "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<BinaryOpScalarFunctor, "
        "multiplies>(...)");
  CHECK(
      ShortKernelName("void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_"
                      "128x1_tn_align8>(T1::Params)") ==
      "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x1_tn_"
      "align8>(...)");
  CHECK(ShortKernelName("<unnamed>::nvfuser_pointwise_f0_c1_r0_g0(<unnamed>::Tensor<float, (int)2, "
                        "(int)2>, <unnamed>::Tensor<float, (int)2, (int)2>)") ==
        "<unnamed>::nvfuser_pointwise_f0_c1_r0_g0(...)");
  // Only numbers and scalar types: the arguments stay hidden.
  CHECK(ShortKernelName("void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, "
                        "true, false>(float*, float const*, int, int, int, bool const*, int, "
                        "bool)") == "void (anonymous namespace)::softmax_warp_forward<...>(...)");
  CHECK(ShortKernelName(
            "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, "
            "float, float, float)") == "void cudnn::bn_bw_1C11_kernel_new<...>(...)");
  CHECK(ShortKernelName("void gemm<float>(float*)") == "void gemm<...>(...)");
  CHECK(ShortKernelName("void f<(anonymous namespace)::Op>(int)") == "void f<Op>(...)");
  CHECK(ShortKernelName("void f<4, Op<float> >(int, Op<float>)") == "void f<Op>(...)");
  // Names without templates; brackets that are not lists.
  CHECK(ShortKernelName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)") ==
        "ncclKernel_AllReduce_RING_LL_Sum_float(...)");
  CHECK(ShortKernelName("Memcpy HtoD (Pageable -> Device)") == "Memcpy HtoD (...)");
  CHECK(ShortKernelName("sm80_xmma_gemm_f32f32") == "sm80_xmma_gemm_f32f32");
  CHECK(ShortKernelName("bool operator<(A, B)") == "bool operator<(...)");
  CHECK(ShortKernelName("void f<Op>(int") == "void f<Op>(...)");  // cut short: no crash
  CHECK(ShortKernelName("void f<Op(int)") == "void f<...>");
}

TEST_CASE("short kernel names of a real session differ wherever the operation does",
          "[kernel_names]") {
  // Every kernel name of the live GPT training session (78 names). Two names may share a short
  // name only when they differ in numbers (vector width, block size, lambda numbers), scalar
  // types or parameter lists: erasing those from both must leave the same text.
  auto loaded = LoadTrace(test::TestData("live/gpt_train/all/trace.json.gz"));
  REQUIRE(loaded.ok());
  const Trace& t = loaded->trace;
  std::set<std::string> names;
  for (uint32_t e = 0; e < t.events.size(); ++e)
    if (t.events.kind[e] == ActivityKind::kKernel) names.emplace(t.str(t.events.trace_name[e]));
  REQUIRE(names.size() == 78);
  const std::regex scalar(R"(c10::BFloat16|\bfloat\b|\blong\b|\bbool\b|\bunsigned int\b|[0-9]+)");
  auto erased = [&](const std::string& name) {
    // The kernel's parameter list: from the last top-level '(' (PyTorch's kernels return void,
    // so the name before it is the kernel's own).
    int angle = 0;
    size_t params = name.size();
    for (size_t i = 0; i < name.size(); ++i) {
      if (name[i] == '<') ++angle;
      if (name[i] == '>' && angle > 0) --angle;
      if (name[i] == '(' && angle == 0 && name.compare(i, 21, "(anonymous namespace)") != 0) {
        params = i;
        break;
      }
    }
    return std::regex_replace(name.substr(0, params), scalar, "#");
  };
  std::map<std::string, std::set<std::string>> by_short;
  for (const std::string& name : names) by_short[ShortKernelName(name)].insert(name);
  CHECK(by_short.size() == 70);
  std::set<std::string> shared;
  for (const auto& [short_name, full] : by_short) {
    if (full.size() < 2) continue;
    shared.insert(short_name);
    for (const std::string& name : full) {
      INFO(short_name << "\n  " << *full.begin() << "\n  " << name);
      CHECK(erased(name) == erased(*full.begin()));
    }
  }
  // The float and bfloat16 variants of the same operation.
  CHECK(shared ==
        std::set<std::string>{
            "void at::native::(anonymous namespace)::fused_dropout_kernel_vec<...>(...)",
            "void at::native::elementwise_kernel<gpu_kernel_impl_nocast<CUDAFunctor_add>>(...)",
            "void at::native::elementwise_kernel<gpu_kernel_impl_nocast<direct_copy_kernel_"
            "cuda>>(...)",
            "void at::native::reduce_kernel<ReduceOp<func_wrapper_t<sum_functor>>>(...)",
            "void at::native::vectorized_elementwise_kernel<CUDAFunctor_add>(...)",
            "void at::native::vectorized_elementwise_kernel<FillFunctor>(...)",
            "void at::native::vectorized_elementwise_kernel<masked_scale_kernel>(...)"});
}

TEST_CASE("short kernel names of the testdata traces", "[kernel_names]") {
  // kernel_verdicts.tsv.gz: every kernel name of the real traces in testdata/ (PyTorch 1.x to
  // 2.11, CUDA and ROCm). The gelu, add and copy kernels read apart, and no short name hides a
  // template's operation behind <...> where the full name has one.
  auto input = ReadInput(test::TestData("tensor_cores/kernel_verdicts.tsv.gz"));
  REQUIRE(input.ok());
  std::string_view text = input->view();
  std::set<std::string> shorts;
  size_t names = 0;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    std::string_view name = line.substr(line.find('\t') + 1);
    shorts.insert(ShortKernelName(name));
    ++names;
  }
  REQUIRE(names > 1000);
  for (const char* s :
       {"void at::native::vectorized_elementwise_kernel<GeluCUDAKernelImpl>(...)",
        "void at::native::vectorized_elementwise_kernel<CUDAFunctor_add>(...)",
        "void at::native::vectorized_elementwise_kernel<bfloat16_copy_kernel_cuda>(...)",
        "void at::native::unrolled_elementwise_kernel<direct_copy_kernel_cuda>(...)"}) {
    INFO(s);
    CHECK(shorts.count(s) == 1);
  }
  CHECK(shorts.count("void at::native::vectorized_elementwise_kernel<...>(...)") == 0);
  CHECK(shorts.count("void at::native::elementwise_kernel<...>(...)") == 0);
  CHECK(shorts.count("void at::native::reduce_kernel<...>(...)") == 0);
  CHECK(shorts.size() == 751);
}
