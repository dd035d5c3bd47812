#include "profana/passes/flops.h"

#include <string>

namespace profana::passes {
namespace {

// The arguments computeFlops reads, as saveExtraArgs saves them.
enum class Formula { kNone, kConv2d, kMatmul, kBatchedMatmul, kElementwise };

struct Saved {
  Formula formula = Formula::kNone;
  const FlopInput* input = nullptr;   // conv2d's input, the elementwise op's tensor
  const FlopInput* weight = nullptr;  // conv2d's weight
  const FlopInput* mat1 = nullptr;
  const FlopInput* mat2 = nullptr;
};

// saveExtraArgs' getInputSizes: at least `min_size` inputs, and tensors where the formula reads
// sizes.
bool Tensors(const std::vector<FlopInput>& inputs, size_t min_size,
             std::initializer_list<size_t> tensors) {
  if (inputs.size() < min_size) return false;
  for (size_t k : tensors)
    if (!inputs[k].is_tensor || !inputs[k].dims_are_ints) return false;
  return true;
}

Saved SaveExtraArgs(std::string_view name, const std::vector<FlopInput>& in) {
  Saved s;
  if (in.empty()) return s;  // "Input shape is unavailable"
  if (name == "aten::conv2d") {
    // aten::conv2d(input, weight, bias, stride, padding, dilation, groups)
    if (!Tensors(in, 7, {0, 1}) || in[1].dims.size() != 4) return s;
    s.formula = Formula::kConv2d;
    s.input = &in[0];
    s.weight = &in[1];
  } else if (name == "aten::mm" || name == "aten::bmm") {
    if (!Tensors(in, 2, {0, 1})) return s;
    s.formula = name == "aten::mm" ? Formula::kMatmul : Formula::kBatchedMatmul;
    s.mat1 = &in[0];
    s.mat2 = &in[1];
  } else if (name == "aten::addmm" || name == "aten::baddbmm") {
    // (self, mat1, mat2, beta, alpha): PyTorch counts the product only, as if beta = alpha = 1.
    if (!Tensors(in, 3, {0, 1, 2})) return s;
    s.formula = name == "aten::addmm" ? Formula::kMatmul : Formula::kBatchedMatmul;
    s.mat1 = &in[1];
    s.mat2 = &in[2];
  } else if (name == "aten::mul" || name == "aten::add") {
    if (!Tensors(in, 1, {0})) return s;
    s.formula = Formula::kElementwise;
    s.input = &in[0];
  }
  return s;
}

uint64_t Product(const std::vector<int64_t>& dims) {
  uint64_t p = 1;
  for (int64_t d : dims) p *= static_cast<uint64_t>(d);
  return p;
}

uint64_t Conv2dFlops(const Saved& s, const std::vector<FlopInput>& in) {
  // stride, padding and dilation must be int lists; groups an int.
  std::vector<int64_t> stride, padding, dilation;
  int64_t groups_value = 0;
  if (!ConcreteIntList(in[3].concrete, &stride) || !ConcreteIntList(in[4].concrete, &padding) ||
      !ConcreteIntList(in[5].concrete, &dilation) || !ConcreteInt(in[6].concrete, &groups_value))
    return 0;
  const std::vector<int64_t>& input = s.input->dims;
  const std::vector<int64_t>& kernel = s.weight->dims;
  const auto groups = static_cast<uint64_t>(groups_value);
  // PyTorch's int64 arithmetic, wrapping (as it does in practice) instead of overflowing.
  auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
  if (input.size() != 4 || kernel.size() != 4 || groups == 0) return 0;
  if (padding.size() != 2 || dilation.size() != 2) return 0;
  if (stride.size() != 2 || u(stride[0]) * u(stride[1]) == 0) return 0;
  auto output_size = [&](int64_t size, int64_t pad, int64_t dil, int64_t k, int64_t str) {
    auto numerator = static_cast<int64_t>(u(size) + 2 * u(pad) - u(dil) * (u(k) - 1) - 1);
    if (str == -1) return u(0) - u(numerator) + 1;  // the one quotient that overflows, negated
    return u(numerator / str) + 1;
  };
  const uint64_t output_h = output_size(input[2], padding[0], dilation[0], kernel[2], stride[0]);
  const uint64_t output_w = output_size(input[3], padding[1], dilation[1], kernel[3], stride[1]);
  const uint64_t kMultiplyAdd = 2;
  // (minibatch, in_channels, h, w) and (out_channels, in_channels / groups, kernel_h, kernel_w).
  return kMultiplyAdd * u(input[0]) * output_h * output_w * u(kernel[2]) * u(kernel[3]) *
         u(input[1]) * u(kernel[0]) / groups;
}

}  // namespace

uint64_t OpFlops(std::string_view op_name, const std::vector<FlopInput>& inputs) {
  Saved s = SaveExtraArgs(op_name, inputs);
  const uint64_t kMultiplyAdd = 2;
  switch (s.formula) {
    case Formula::kNone:
      return 0;
    case Formula::kConv2d:
      return Conv2dFlops(s, inputs);
    case Formula::kMatmul:
    case Formula::kBatchedMatmul: {
      // mat1 [.., n, k] x mat2 [k, m]: n*k*m multiply-adds, counted from the sizes as PyTorch
      // does (the product of mat1's sizes over the shared one, times mat2's, and over the batch
      // for the batched forms).
      const std::vector<int64_t>& mat1 = s.mat1->dims;
      if (mat1.empty()) return 0;
      const int64_t overlap = mat1.back();
      if (overlap == 0) return 0;
      uint64_t flops = Product(mat1) / static_cast<uint64_t>(overlap);
      if (s.formula == Formula::kBatchedMatmul) {
        const int64_t batch = mat1.front();
        if (batch == 0) return 0;
        flops /= static_cast<uint64_t>(batch);
      }
      return flops * Product(s.mat2->dims) * kMultiplyAdd;
    }
    case Formula::kElementwise:
      return Product(s.input->dims);  // one per element of the first tensor
  }
  return 0;
}

EventFlops::EventFlops(const Trace& trace) : trace_(trace) {
  const EventTable& ev = trace.events;
  const Column<StringId>& inputs = ev.flop_inputs;
  if (inputs.is_uniform() && (inputs.size() == 0 || inputs[0].value == 0)) return;
  std::vector<FlopInput> parsed;
  for (size_t e = 0; e < ev.size(); ++e) {
    StringId id = inputs[e];
    if (!id.value) continue;
    auto [it, inserted] = by_inputs_.try_emplace(Key(ev.trace_name[e], id), 0);
    if (!inserted) continue;
    if (ParseFlopInputs(trace.str(id), &parsed))
      it->second = OpFlops(trace.str(ev.trace_name[e]), parsed);
    any_ |= it->second > 0;
  }
}

bool FlopsPromisedButMissing(const Trace& trace) {
  if (!trace.metadata.with_flops) return false;
  const EventTable& ev = trace.events;
  bool counted_ops = false;
  for (size_t e = 0; e < ev.size(); ++e) {
    if (ev.flop_inputs[e].value) return false;
    counted_ops = counted_ops || CountsFlops(trace.str(ev.trace_name[e]));
  }
  return counted_ops;
}

}  // namespace profana::passes
