// What device work records about itself: a kernel's launch configuration (grid, block, registers,
// shared memory, and Kineto's estimates of blocks and warps per SM and of achieved occupancy), a
// copy's or memset's size, recorded bandwidth, direction and memory kinds. Kineto writes these as
// args ("grid", "registers per thread", "bytes", ...: libkineto's GpuActivity::metadataJson);
// nsys, rocpd, rpd, rocprofv3 and nvprof as columns. Each importer fills a DeviceArgs per
// activity; the model keeps them in DeviceArgsTable (model/trace.h), a row per activity that
// recorded any. The names of copy directions and memory kinds, as Kineto spells them
// (libkineto/src/cupti_strings.cpp) and the other profilers after it, are read here once.
#pragma once

#include <cstdint>
#include <string_view>

namespace profana {

// A copy's direction: CUPTI's CUpti_ActivityMemcpyKind, in its numbering. Stored in native files.
enum class CopyKind : uint8_t {
  kUnknown,
  kHtoD,
  kDtoH,
  kHtoA,
  kAtoH,
  kAtoA,
  kAtoD,
  kDtoA,
  kDtoD,
  kHtoH,
  kPtoP,  // between two devices (peer to peer)
};
constexpr CopyKind kLastCopyKind = CopyKind::kPtoP;

// Where a copy's source or destination lives: CUPTI's CUpti_ActivityMemoryKind, in its numbering,
// then ROCm's "Host", which does not say pageable or pinned. Stored in native files: append, never
// reorder.
enum class MemoryKind : uint8_t {
  kUnknown,
  kPageable,
  kPinned,
  kDevice,
  kArray,
  kManaged,
  kDeviceStatic,
  kManagedStatic,
  kHost,
};
constexpr MemoryKind kLastMemoryKind = MemoryKind::kHost;

const char* CopyKindName(CopyKind kind);          // "HtoD", "PtoP", "Unknown"
const char* MemoryKindName(MemoryKind kind);      // "Pageable", "Device Static", "Unknown"
CopyKind CopyKindFromName(std::string_view);      // the inverse; kUnknown for any other text
MemoryKind MemoryKindFromName(std::string_view);  // the inverse; kUnknown for any other text

struct CopyKinds {
  CopyKind kind = CopyKind::kUnknown;
  MemoryKind src = MemoryKind::kUnknown, dst = MemoryKind::kUnknown;
};
// The kinds a copy's name says: Kineto's "Memcpy HtoD (Pageable -> Device)" (and the names the
// nsys importer gives its rows, which follow it), ROCm's "Memcpy DtoD (Device -> Device)",
// nvprof's "[CUDA memcpy HtoD]", and a name with no parenthesis ("Memcpy PtoP"): the direction
// wherever the name holds one, the memory kinds only from Kineto's parenthesis. A memset's
// "Memset (Device)" gives its memory kind as `dst`.
CopyKinds CopyKindsOfName(std::string_view name);

// One activity's args as an importer read them. -1 (or kUnknown) is "not recorded".
struct DeviceArgs {
  int32_t grid[3] = {-1, -1, -1};
  int32_t block[3] = {-1, -1, -1};
  int32_t registers = -1;      // registers per thread
  int32_t shared_memory = -1;  // bytes per block, static and dynamic
  double blocks_per_sm = -1;   // Kineto's "blocks per SM": blocks / the device's SMs
  double warps_per_sm = -1;    // Kineto's "warps per SM"
  double occupancy = -1;       // Kineto's "est. achieved occupancy %", a percent
  int64_t bytes = -1;          // a copy's or memset's size
  double bandwidth = -1;       // "memory bandwidth (GB/s)" as the profiler worked it out
  CopyKind copy = CopyKind::kUnknown;
  MemoryKind copy_src = MemoryKind::kUnknown, copy_dst = MemoryKind::kUnknown;

  // copy, copy_src and copy_dst as the copy's or memset's name says (CopyKindsOfName).
  void SetCopyKindsFromName(std::string_view name);
  // shared_memory from CUPTI's two parts, where both are recorded and their sum fits.
  void SetSharedMemory(int32_t static_bytes, int32_t dynamic_bytes);
};

// A grid size in work-items (rocprofiler-sdk's, HIP's globalWorkSize) as the blocks of
// `workgroup` work-items the model counts, rounded up; -1 where either is not recorded.
int32_t BlocksOfWorkItems(int64_t work_items, int32_t workgroup);

}  // namespace profana
