// What an event is for the analyses that split time by role: which ProfilerStep#N marker it is,
// and what kind of device work (computation, communication, memory). Written once here; the step
// breakdown, the critical path and the advice ask these functions.
#pragma once

#include <cstdint>
#include <string_view>

#include "profana/model/trace.h"

namespace profana {

// N of a ProfilerStep#N marker (a CPU op or user annotation so named); -1 for any other event.
int64_t StepNumberOf(const Trace& trace, uint32_t event);

// Whether device work copies or sets memory: by its kind, or by its name where a trace records
// the copy as a kernel or names it only (Kineto's "Memcpy HtoD (Pinned -> Device)" and
// "Memset (Device)", nvprof's "[CUDA memcpy HtoD]" and "[CUDA memset]"). A memset by either is a
// memset. (A copy's direction is model/device_args.h's CopyKind.)
enum class MemoryOp : uint8_t { kNone, kMemcpy, kMemset };
MemoryOp MemoryOpOf(const Trace& trace, uint32_t event);

// Kernel categories as HTA's get_kernel_type names them (lower case): communication when a
// kernel's name holds "nccl" or "rccl" (any case), memory for memcpys, memsets and kernels that
// MemoryOpOf names a copy, computation for other kernels; kNone for anything else.
enum class DeviceCategory : uint8_t { kComputation, kCommunication, kMemory, kNone };
DeviceCategory CategoryOf(const Trace& trace, uint32_t event);

// Whether `s` holds `word` (lower-case ASCII letters), ignoring ASCII case.
bool ContainsNoCase(std::string_view s, std::string_view word);

}  // namespace profana
