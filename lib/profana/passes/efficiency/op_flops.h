// Where each op's FLOPs were done, for MFU and achieved FLOP/s: PyTorch's count of an op
// (passes/flops.h) credited to the device its kernels ran on, at the peak of the data type it ran
// in (device_peaks.h). The rules (docs/semantics.md, "MFU"):
//  * each op's FLOPs count once: an op PyTorch counts that runs inside another counted op on its
//    thread (aten::add under aten::addmm's decomposition, say) adds nothing of its own;
//  * an op counts only where it launched device work: the kernels whose launching runtime call
//    (the correlation id) ran on the op's thread while the op ran (the enclosing rule); a CPU op
//    does no device FLOPs;
//  * its device is its first kernel's, and its time is when that kernel started;
//  * its type is its first tensor input's "Input type", on Tensor Cores when one of its kernels
//    uses them (tensor_cores.h): fp32 on Tensor Cores is TF32. Integer and bool ops have no peak.
#pragma once

#include <cstdint>
#include <vector>

#include "profana/model/trace.h"
#include "profana/passes/efficiency/device_peaks.h"

namespace profana::passes {

struct OpDeviceFlops {
  EventId op;
  int32_t device = -1;
  int64_t first_kernel_ns = 0;  // when the op's first kernel started
  uint64_t flops = 0;
  // The time the FLOPs take at the device's peak for the op's type, in ns; -1 when the type has no
  // peak or the device is not in the peak table.
  double peak_ns = -1;
};

// The counted ops that launched kernels, in trace event order.
std::vector<OpDeviceFlops> FlopsOnDevices(const Trace& trace);

}  // namespace profana::passes
