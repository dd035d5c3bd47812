#include "profana/passes/efficiency/device_peaks.h"

#include <cctype>

namespace profana::passes {
namespace {

constexpr std::string_view kH100 =
    "https://www.nvidia.com/en-us/data-center/h100/ (H100 data sheet)";
constexpr std::string_view kH200 =
    "https://www.nvidia.com/en-us/data-center/h200/ (H200 data sheet)";
constexpr std::string_view kB200 =
    "https://www.nvidia.com/en-us/data-center/hgx/ (HGX B200, per GPU)";
constexpr std::string_view kA100 =
    "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
    "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf";
constexpr std::string_view kA10 = "https://www.nvidia.com/en-us/data-center/products/a10-gpu/";
constexpr std::string_view kL4 = "https://www.nvidia.com/en-us/data-center/l4/";
constexpr std::string_view kL40S = "https://www.nvidia.com/en-us/data-center/l40s/";
constexpr std::string_view kV100 =
    "https://images.nvidia.com/content/technologies/volta/pdf/"
    "volta-v100-datasheet-update-us-1165301-r5.pdf";
constexpr std::string_view kT4 = "https://www.nvidia.com/en-us/data-center/tesla-t4/";
constexpr std::string_view kMI300X =
    "https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html";
constexpr std::string_view kMI325X =
    "https://www.amd.com/en/products/accelerators/instinct/mi300/mi325x.html";
constexpr std::string_view kMI250X =
    "https://www.amd.com/en/products/accelerators/instinct/mi200/mi250x.html";
constexpr std::string_view kMI250 =
    "https://www.amd.com/en/products/accelerators/instinct/mi200/mi250.html";
constexpr std::string_view kMI210 =
    "https://www.amd.com/en/products/accelerators/instinct/mi200/mi210.html";

// Whether `name` holds `word` as one of its words (split at spaces, '-' and '/'), any case.
bool HasWord(std::string_view name, std::string_view word) {
  size_t i = 0;
  while (i < name.size()) {
    while (i < name.size() && (name[i] == ' ' || name[i] == '-' || name[i] == '/')) ++i;
    size_t end = i;
    while (end < name.size() && name[end] != ' ' && name[end] != '-' && name[end] != '/') ++end;
    std::string_view token = name.substr(i, end - i);
    if (token.size() == word.size()) {
      bool same = true;
      for (size_t k = 0; k < token.size() && same; ++k)
        same = std::tolower(static_cast<unsigned char>(token[k])) ==
               std::tolower(static_cast<unsigned char>(word[k]));
      if (same) return true;
    }
    i = end;
  }
  return false;
}

}  // namespace

const char* PeakTypeName(PeakType t) {
  static const char* const kNames[kPeakTypes] = {"fp64", "fp64_tensor", "fp32", "tf32",
                                                 "fp16", "bf16",        "fp8",  "int8"};
  return kNames[static_cast<size_t>(t)];
}

const std::vector<DevicePeak>& DevicePeaks() {
  // Columns: fp64, fp64 tensor, fp32, tf32 (fp32 on Tensor Cores or matrix cores), fp16, bf16,
  // fp8, int8. Dense figures: the data sheets' Tensor Core figures marked "with sparsity", halved.
  // More specific rows first: the first row whose words a name holds wins.
  static const std::vector<DevicePeak> peaks = {
      {"H100 PCIe", {"H100", "PCIe"}, {26, 51, 51, 378, 756.5, 756.5, 1513, 1513}, kH100},
      {"H100 NVL", {"H100", "NVL"}, {30, 60, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5}, kH100},
      {"H100 SXM", {"H100"}, {34, 67, 67, 494.5, 989.5, 989.5, 1979, 1979}, kH100},
      {"H200 NVL", {"H200", "NVL"}, {30, 60, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5}, kH200},
      {"H200 SXM", {"H200"}, {34, 67, 67, 494.5, 989.5, 989.5, 1979, 1979}, kH200},
      {"B200", {"B200"}, {37, 37, 75, 1100, 2250, 2250, 4500, 4500}, kB200},
      {"A100", {"A100"}, {9.7, 19.5, 19.5, 156, 312, 312, 0, 624}, kA100},
      {"A10", {"A10"}, {0, 0, 31.2, 62.5, 125, 125, 0, 250}, kA10},
      {"L40S", {"L40S"}, {0, 0, 91.6, 183, 362.05, 362.05, 733, 733}, kL40S},
      {"L4", {"L4"}, {0, 0, 30.3, 60, 121, 121, 242.5, 242.5}, kL4},
      {"V100S PCIe", {"V100S"}, {8.2, 0, 16.4, 0, 130, 0, 0, 0}, kV100},
      {"V100 PCIe", {"V100", "PCIe"}, {7, 0, 14, 0, 112, 0, 0, 0}, kV100},
      {"V100 SXM2", {"V100"}, {7.8, 0, 15.7, 0, 125, 0, 0, 0}, kV100},
      {"T4", {"T4"}, {0, 0, 8.1, 0, 65, 0, 0, 130}, kT4},
      {"MI300X", {"MI300X"}, {81.7, 163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9}, kMI300X},
      {"MI325X", {"MI325X"}, {81.7, 163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9}, kMI325X},
      {"MI250X", {"MI250X"}, {47.9, 95.7, 47.9, 95.7, 383, 383, 0, 383}, kMI250X},
      {"MI250", {"MI250"}, {45.3, 90.5, 45.3, 90.5, 362.1, 362.1, 0, 362.1}, kMI250},
      {"MI210", {"MI210"}, {22.6, 45.3, 22.6, 45.3, 181, 181, 0, 181}, kMI210},
  };
  return peaks;
}

const DevicePeak* PeakOfDevice(std::string_view name) {
  for (const DevicePeak& p : DevicePeaks()) {
    bool all = true;
    for (std::string_view w : p.words) all = all && HasWord(name, w);
    if (all) return &p;
  }
  return nullptr;
}

bool PeakTypeOf(std::string_view type, bool tensor_cores, PeakType* out) {
  if (type == "float") {
    *out = tensor_cores ? PeakType::kTf32 : PeakType::kFp32;
  } else if (type == "double") {
    *out = tensor_cores ? PeakType::kFp64Tensor : PeakType::kFp64;
  } else if (type == "c10::Half") {
    *out = PeakType::kFp16;
  } else if (type == "c10::BFloat16") {
    *out = PeakType::kBf16;
  } else if (type.substr(0, 12) == "c10::Float8_") {
    *out = PeakType::kFp8;
  } else {
    return false;
  }
  return true;
}

double PeakFlops(const DevicePeak& device, PeakType type) {
  return device.tflops[static_cast<size_t>(type)] * 1e12;
}

}  // namespace profana::passes
