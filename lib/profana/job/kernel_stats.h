// Kernel, API and transfer statistics of one rank (what nsys stats prints as cuda_gpu_kern_sum,
// cuda_api_sum and cuda_gpu_mem_time_sum): per kernel name, per launching op, per runtime or
// driver call, each with its category and DurationStats. Keyed by name in ordered maps, so a
// merge of several ranks is keyed the same way in any order.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "profana/base/status.h"
#include "profana/job/duration_stats.h"
#include "profana/model/trace.h"
#include "profana/passes/function_events.h"

namespace profana::job {

enum class KernelCategory : uint8_t {
  kComputation,
  kCommunication,  // NCCL/RCCL kernels
  kMemcpyHtoD,
  kMemcpyDtoH,
  kMemcpyDtoD,
  kMemcpyHtoH,
  kMemcpyPtoP,
  kMemcpyOther,  // a copy whose name says no direction
  kMemset,
  kMixed,  // a --by-op row whose kernels are of several categories
};
const char* KernelCategoryName(KernelCategory c);  // "computation", "memcpy_htod", ...
bool IsTransfer(KernelCategory c);                 // memcpy or memset

struct KernelStat {
  KernelCategory category = KernelCategory::kComputation;
  DurationStats duration;
  bool Merge(const KernelStat& o);  // false when the sums do not fit (DurationStats::Merge)
};

struct KernelStats {
  std::map<std::string, KernelStat> kernels;  // by kernel (or memcpy/memset) name
  std::map<std::string, KernelStat> by_op;    // by the op that launched them; "(no op)"
  std::map<std::string, DurationStats> api;   // runtime and driver calls, by name
  // An error naming the kernel, op or call whose sums would not fit in 64 bits.
  Status Merge(const KernelStats& o);
};

KernelCategory KernelCategoryOf(const Trace& trace, uint32_t event);
KernelStats ComputeKernelStats(const Trace& trace, const passes::FunctionEventList& events);

// A kernel name for text tables: C++ template argument lists become <...> and a function's
// parameter list (...), so `void at::native::f<4, Op<float>>(int, Op<float>)` reads
// `void at::native::f<...>(...)`. Names without templates or parameters stay as they are.
std::string ShortKernelName(std::string_view name);

}  // namespace profana::job
