// The dense peak throughput of the GPUs profana knows, per data type, from the vendors' data
// sheets (docs/semantics.md, "Device peaks", lists every figure with its source). Vendors print
// Tensor Core figures "with sparsity" (2:4 structured sparsity doubles them); the table keeps the
// dense figure, half of that, which is what a model's matmuls can reach. A trace names its device
// in deviceProperties' "name" (nsys: TARGET_INFO_GPU.name); the table is matched on the words of
// that name. Used for MFU: FLOPs over (time x peak).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace profana::passes {

// The data types a peak is given for. kFp32 is the FP32 (FFMA) rate, kTf32 the Tensor Core rate
// for fp32 inputs; kFp64Tensor the FP64 Tensor Core (or matrix core) rate.
enum class PeakType : uint8_t { kFp64, kFp64Tensor, kFp32, kTf32, kFp16, kBf16, kFp8, kInt8 };
constexpr size_t kPeakTypes = 8;
const char* PeakTypeName(PeakType t);  // "fp64", "fp64_tensor", "fp32", "tf32", "fp16", ...

struct DevicePeak {
  std::string_view model;  // "H100 SXM", "MI300X"
  // The words of deviceProperties' name that pick this row (case-insensitive; the first row all
  // of whose words the name holds wins): {"H100", "PCIe"}.
  std::vector<std::string_view> words;
  double tflops[kPeakTypes];  // dense TFLOP/s (TOP/s for int8); 0 where the device has none
  std::string_view source;    // the data sheet
};

const std::vector<DevicePeak>& DevicePeaks();

// The row for a device name ("NVIDIA H100 80GB HBM3"), or null when the table does not know it.
const DevicePeak* PeakOfDevice(std::string_view device_name);

// The type an op's FLOPs count at, from its first tensor input's "Input type" ("float",
// "c10::BFloat16", "c10::Half", "double", "c10::Float8_e4m3fn", ...) and whether its kernels ran
// on Tensor Cores (fp32 on Tensor Cores is TF32, fp64 is FP64 Tensor Core). False for a type
// without a floating-point peak (integers, bool, complex).
bool PeakTypeOf(std::string_view input_type, bool tensor_cores, PeakType* out);

// FLOP/s of the peak, 0 when the device has none for the type.
double PeakFlops(const DevicePeak& device, PeakType type);

}  // namespace profana::passes
