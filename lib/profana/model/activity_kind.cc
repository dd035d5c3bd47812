#include "profana/model/activity_kind.h"

namespace profana {

const char* ActivityKindName(ActivityKind kind) {
  switch (kind) {
    case ActivityKind::kCpuOp:
      return "cpu_op";
    case ActivityKind::kUserAnnotation:
      return "user_annotation";
    case ActivityKind::kRuntime:
      return "runtime";
    case ActivityKind::kDriver:
      return "driver";
    case ActivityKind::kCpuInstant:
      return "cpu_instant_event";
    case ActivityKind::kPythonFunction:
      return "python_function";
    case ActivityKind::kCpuOther:
      return "cpu_other";
    case ActivityKind::kKernel:
      return "kernel";
    case ActivityKind::kMemcpy:
      return "memcpy";
    case ActivityKind::kMemset:
      return "memset";
    case ActivityKind::kGpuUserAnnotation:
      return "gpu_user_annotation";
    case ActivityKind::kDeviceOther:
      return "device_other";
    case ActivityKind::kTraceSpan:
      return "trace_span";
  }
  return "unknown";
}

}  // namespace profana
