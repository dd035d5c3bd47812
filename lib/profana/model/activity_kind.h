// What an activity is (ActivityKind, from its category) and the questions every pass asks of a
// kind: is it device activity, work a launch puts on a stream, a call into the CUDA runtime or
// driver, a PyTorch CPU FunctionEvent. Each rule is written here once; passes and io ask these
// functions instead of listing kinds themselves.
#pragma once

#include <cstdint>

namespace profana {

// Kineto spelled these differently over the years ("Operator" / "cpu_op", "Runtime" /
// "cuda_runtime", "Kernel" / "kernel", ...); the importers map every spelling to one kind.
// The values are stored in native files: append, never reorder.
enum class ActivityKind : uint8_t {
  kCpuOp,              // cpu_op, Operator, and events of the bare-array export
  kUserAnnotation,     // user_annotation: record_function labels, ProfilerStep#N
  kRuntime,            // cuda_runtime, Runtime, mtia_runtime: launches happen here
  kDriver,             // cuda_driver
  kCpuInstant,         // cpu_instant_event (other than [memory])
  kPythonFunction,     // python_function: with_stack Python frames, not FunctionEvents
  kCpuOther,           // overhead and other host-side categories
  kKernel,             // kernel, Kernel
  kMemcpy,             // gpu_memcpy, Memcpy
  kMemset,             // gpu_memset, Memset
  kGpuUserAnnotation,  // gpu_user_annotation: a CPU label projected on a stream
  kDeviceOther,  // other device-side activity (mtia_ccp_events, cuda_profiler_range, cuda_sync)
  kTraceSpan,    // cat "Trace": the profiler's own whole-trace span
};
constexpr ActivityKind kLastActivityKind = ActivityKind::kTraceSpan;

const char* ActivityKindName(ActivityKind kind);  // "cpu_op", "runtime", ...

// Anything that happened on a device track (a stream): kernels, memcpys, memsets, GPU user
// annotations and other device-side ranges. Everything else is host-side.
constexpr bool IsDeviceActivity(ActivityKind kind) {
  return kind == ActivityKind::kKernel || kind == ActivityKind::kMemcpy ||
         kind == ActivityKind::kMemset || kind == ActivityKind::kGpuUserAnnotation ||
         kind == ActivityKind::kDeviceOther;
}

// Kernels, memcpys and memsets: the work a launch puts on a stream, which the stream runs one at
// a time. These are PyTorch's DeviceType.CUDA FunctionEvents.
constexpr bool IsDeviceWork(ActivityKind kind) {
  return kind == ActivityKind::kKernel || kind == ActivityKind::kMemcpy ||
         kind == ActivityKind::kMemset;
}

// A host call into the CUDA runtime or driver. Any of them may enqueue device work (a kernel
// launch, cudaMemcpyAsync, cudaGraphLaunch) and name it by its correlation id.
constexpr bool IsRuntimeOrDriver(ActivityKind kind) {
  return kind == ActivityKind::kRuntime || kind == ActivityKind::kDriver;
}

// A CPU op or a user annotation (record_function): what Kineto links a launch to by External id,
// and what owns the kernels it launched.
constexpr bool IsOpOrAnnotation(ActivityKind kind) {
  return kind == ActivityKind::kCpuOp || kind == ActivityKind::kUserAnnotation;
}

// PyTorch's DeviceType.CPU FunctionEvents: ops, annotations, and runtime and driver calls.
// python_function frames, instants and other host categories are not FunctionEvents.
constexpr bool IsCpuFunctionEvent(ActivityKind kind) {
  return IsOpOrAnnotation(kind) || IsRuntimeOrDriver(kind);
}

}  // namespace profana
