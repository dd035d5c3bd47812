// The text of the ranges PyTorch pushes when it profiles through NVTX or roctx (emit_nvtx,
// `nsys profile --pytorch=autograd-nvtx`, the ROCm equivalents): torch/csrc/profiler/util.cpp's
// getNvtxStr writes "NAME[, seq = N][, op_id = N][, sizes = [[2, 3], [3]]][, input_op_ids =
// [(7,0), ...]]". Importers that read such ranges split the name from what follows it.
#pragma once

#include <cstdint>
#include <string_view>

namespace profana {

struct PyTorchRange {
  std::string_view name;     // NAME, with the suffixes cut
  int32_t sequence_nr = -1;  // ", seq = N": autograd's sequence number (-1: none)
  int64_t op_id = -1;        // ", op_id = N": the RecordFunction handle (-1: none)
  std::string_view sizes;    // ", sizes = [...]": input shapes as Python prints them ("" if none)
  // A suffix was found, or the name is an ATen operator: the range is one of PyTorch's ops.
  bool is_op = false;
};

// Never fails: text without PyTorch's suffixes comes back whole as the name.
PyTorchRange ParsePyTorchRange(std::string_view text);

}  // namespace profana
