#include "profana/model/activity_kind.h"

#include <cstddef>
#include <iterator>

#include "profana/model/kineto_category.h"

namespace profana {
namespace {

// Each kind's names, in the enum's order: profana's own (info's event counts, the database's
// event kinds) and the category Kineto writes for it.
struct KindNames {
  ActivityKind kind;
  const char* name;
  const char* kineto_category;
};
constexpr KindNames kKindNames[] = {
    {ActivityKind::kCpuOp, "cpu_op", "cpu_op"},
    {ActivityKind::kUserAnnotation, "user_annotation", "user_annotation"},
    {ActivityKind::kRuntime, "runtime", "cuda_runtime"},
    {ActivityKind::kDriver, "driver", "cuda_driver"},
    {ActivityKind::kCpuInstant, "cpu_instant_event", "cpu_instant_event"},
    {ActivityKind::kPythonFunction, "python_function", "python_function"},
    {ActivityKind::kCpuOther, "cpu_other", "overhead"},
    {ActivityKind::kKernel, "kernel", "kernel"},
    {ActivityKind::kMemcpy, "memcpy", "gpu_memcpy"},
    {ActivityKind::kMemset, "memset", "gpu_memset"},
    {ActivityKind::kGpuUserAnnotation, "gpu_user_annotation", "gpu_user_annotation"},
    {ActivityKind::kDeviceOther, "device_other", "cuda_sync"},
    {ActivityKind::kTraceSpan, "trace_span", "Trace"},
};

constexpr bool OneRowPerKindInOrder() {
  for (size_t i = 0; i < std::size(kKindNames); ++i)
    if (static_cast<size_t>(kKindNames[i].kind) != i) return false;
  return std::size(kKindNames) == static_cast<size_t>(kLastActivityKind) + 1;
}
static_assert(OneRowPerKindInOrder(), "kKindNames: one row per ActivityKind, in the enum's order");

const KindNames* NamesOf(ActivityKind kind) {
  auto i = static_cast<size_t>(kind);
  return i < std::size(kKindNames) ? &kKindNames[i] : nullptr;
}

}  // namespace

const char* ActivityKindName(ActivityKind kind) {
  const KindNames* n = NamesOf(kind);
  return n ? n->name : "unknown";
}

const char* KinetoCategory(ActivityKind kind) {
  const KindNames* n = NamesOf(kind);
  return n ? n->kineto_category : nullptr;
}

}  // namespace profana
