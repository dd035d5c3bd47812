// The short form of a kernel name for text tables (`kernels`, `tree`, `diff`, `idle`, ...;
// --full-names prints the whole name). A CUDA kernel's name is its demangled C++ signature, so
// PyTorch's elementwise, reduce and CUTLASS kernels differ only inside their template argument
// lists: `void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>,
// std::array<char*, 3ul> >(int, ...)`. The short form keeps what tells them apart.
#pragma once

#include <string>
#include <string_view>

namespace profana::passes {

// A kernel name with each template argument list outside parentheses reduced to its
// distinguishing arguments, and each parameter list outside template arguments to (...):
//   void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, ...>(...)
//     -> void at::native::vectorized_elementwise_kernel<CUDAFunctor_add>(...)
//   ...<8, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, ...)::{lambda()#1}::..., ...>
//     -> ...<GeluCUDAKernelImpl>(...)   (a lambda or local type: the function it is defined in,
//                                         or the class of an operator() it is defined in)
//   ...<4, at::native::BinaryFunctor<bool, bool, bool, at::native::BitwiseAndFunctor<bool> >, ...>
//     -> ...<BinaryFunctor<BitwiseAndFunctor>>(...)   (the same rule inside, without namespaces)
// A kernel's own list shows its first two distinguishing arguments (a foreach kernel's functor
// family and operation: multi_tensor_apply_kernel<BinaryOpScalarFunctor, multiplies>), a list
// inside it the first one, two lists deep at most (reduce_kernel<ReduceOp<func_wrapper_t<
// sum_functor>>>). An argument distinguishes unless it is a number or other literal (`4`,
// `(int)4`, `2ul`, `true`, `!T7`, `decltype(nullptr)`), a placeholder (`T2`), a scalar type
// (`float`, `c10::Half`, `char*`, `unsigned long`, `float4`, `c10::complex<float>`, ...) or a
// carrier of operands (`std::array`, `OffsetCalculator`, `LoadWithCast`, `TensorListMetadata`,
// ...). A kernel's list with no distinguishing argument reads <...> (a list inside it is
// dropped). So two kernels read alike only when their names differ in numbers (vector width, tile
// sizes), scalar types, which of a function's lambdas they run (the lambdas of one function are
// its dtype branches: `launch_clamp_scalar`'s {lambda()#6} and #7 are double and float), the
// arguments past those shown, or their parameter lists. `operator<`, `(anonymous namespace)` and
// `<unnamed>` are names, not brackets. Names without templates or parameters stay as they are.
std::string ShortKernelName(std::string_view name);

}  // namespace profana::passes
