// What a trace keeps of an op's recorded inputs for PyTorch's FLOP count (EventTable::flop_inputs).
// PyTorch counts FLOPs for a few ops only (torch/csrc/profiler/util.cpp, saveExtraArgs), from
// their input sizes and, for aten::conv2d, the stride, padding, dilation and groups arguments. A
// Kineto file records those as the args "Input Dims", "Input type" and "Concrete Inputs"; the
// importer keeps the three, as written, for the ops PyTorch counts, and passes/flops.h applies
// the formulas. The rule which ops count lives here, once, for both.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace profana {

// aten::conv2d, aten::mm, aten::addmm, aten::bmm, aten::baddbmm, aten::mul, aten::add: the names
// PyTorch's saveExtraArgs and computeFlops compare an op's name with (exactly: aten::add_ and
// aten::matmul count nothing).
constexpr std::string_view kFlopCountedOps[] = {"aten::conv2d", "aten::mm",      "aten::addmm",
                                                "aten::bmm",    "aten::baddbmm", "aten::mul",
                                                "aten::add"};

inline bool CountsFlops(std::string_view op_name) {
  if (op_name.size() < 8 || op_name.substr(0, 6) != "aten::") return false;
  for (std::string_view op : kFlopCountedOps)
    if (op == op_name) return true;
  return false;
}

// EventTable::flop_inputs holds the three args' JSON text joined by this separator, in this
// order: "Input Dims", "Input type", "Concrete Inputs" (each empty when the event has none).
constexpr char kFlopInputsSeparator = '\x1f';  // ASCII unit separator: outside any JSON token

struct FlopInputsText {
  std::string_view dims, types, concrete;
};

// Writes the three args' text into `out` joined as EventTable::flop_inputs holds them.
inline void JoinFlopInputs(std::string_view dims, std::string_view types, std::string_view concrete,
                           std::string* out) {
  out->assign(dims);
  *out += kFlopInputsSeparator;
  out->append(types);
  *out += kFlopInputsSeparator;
  out->append(concrete);
}

inline FlopInputsText SplitFlopInputs(std::string_view joined) {
  FlopInputsText out;
  std::string_view* parts[] = {&out.dims, &out.types, &out.concrete};
  for (std::string_view* part : parts) {
    size_t end = joined.find(kFlopInputsSeparator);
    *part = joined.substr(0, end);
    joined = end == std::string_view::npos ? std::string_view() : joined.substr(end + 1);
  }
  return out;
}

// One recorded input of an op, as the formulas read it.
struct FlopInput {
  // "Input type" names a tensor's dtype ("float", "c10::BFloat16"); "", "Scalar", "ScalarList" and
  // "TensorList" are not tensors. A trace without types counts every input as a tensor (the
  // counted ops take tensors where the formulas look).
  bool is_tensor = true;
  std::vector<int64_t> dims;  // the "Input Dims" entry: [] for scalars, None and 0-dim tensors
  bool dims_are_ints = true;  // false for a nested entry (a TensorList's sizes)
  std::string concrete;       // the "Concrete Inputs" entry: "[2, 2]", "1", "" when absent
};

// The inputs of EventTable::flop_inputs text, one per "Input Dims" entry. False (and nothing
// read) when the text is not the JSON arrays Kineto writes.
bool ParseFlopInputs(std::string_view joined, std::vector<FlopInput>* out);
// A concrete input as c10 prints an int list ("[2, 2]") or an int ("1"). False for anything else.
bool ConcreteIntList(std::string_view text, std::vector<int64_t>* out);
bool ConcreteInt(std::string_view text, int64_t* out);

// The "Input type" and "Concrete Inputs" lists as strings (empty where the trace had none), for
// writing them back. False when either is malformed.
bool ParseFlopInputLists(std::string_view joined, std::vector<std::string>* types,
                         std::vector<std::string>* concrete);

}  // namespace profana
