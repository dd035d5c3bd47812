// What the ROCm importers (rocmProfileData, rocpd, rocprofv3 JSON) share: which host calls are
// HIP runtime calls, and the names Kineto gives ROCm copies and fills, so a ROCm trace read from
// any of them lines up with a Kineto trace of the same run.
#pragma once

#include <string>
#include <string_view>

#include "profana/model/trace.h"

namespace profana::rocm {

// hip* calls are runtime calls (Kineto's cuda_runtime), hsa_* calls driver calls; anything else
// a profiler records about itself (RPD's "ApiTable::writeRows") is overhead.
ActivityKind HostCallKind(std::string_view api_name);
// Kineto's category of the kind (model/kineto_category.h); "" for device ops other than
// kernels, copies and fills, which Kineto has no category of their own for.
const char* CategoryOf(ActivityKind kind);

// "Memcpy HtoD (Host -> Device)" for a copy direction spelt "HostToDevice" (RPD's op types,
// CopyHostToDevice) or "HOST_TO_DEVICE" (rocprofiler-sdk's MEMORY_COPY_HOST_TO_DEVICE).
std::string CopyName(std::string_view direction);

}  // namespace profana::rocm
