#include "profana/model/device_args.h"

namespace profana {
namespace {

constexpr const char* kCopyNames[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                      "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
constexpr const char* kMemoryNames[] = {"Unknown",       "Pageable",       "Pinned",
                                        "Device",        "Array",          "Managed",
                                        "Device Static", "Managed Static", "Host"};
static_assert(sizeof(kCopyNames) / sizeof(kCopyNames[0]) == size_t(kLastCopyKind) + 1);
static_assert(sizeof(kMemoryNames) / sizeof(kMemoryNames[0]) == size_t(kLastMemoryKind) + 1);

}  // namespace

const char* CopyKindName(CopyKind kind) {
  return kind <= kLastCopyKind ? kCopyNames[static_cast<size_t>(kind)] : kCopyNames[0];
}

const char* MemoryKindName(MemoryKind kind) {
  return kind <= kLastMemoryKind ? kMemoryNames[static_cast<size_t>(kind)] : kMemoryNames[0];
}

CopyKind CopyKindFromName(std::string_view name) {
  for (size_t k = 1; k <= static_cast<size_t>(kLastCopyKind); ++k)
    if (name == kCopyNames[k]) return static_cast<CopyKind>(k);
  return CopyKind::kUnknown;
}

MemoryKind MemoryKindFromName(std::string_view name) {
  for (size_t k = 1; k <= static_cast<size_t>(kLastMemoryKind); ++k)
    if (name == kMemoryNames[k]) return static_cast<MemoryKind>(k);
  return MemoryKind::kUnknown;
}

CopyKinds CopyKindsOfName(std::string_view name) {
  CopyKinds out;
  // The direction: the first four-letter word of the form XtoY that names one.
  for (size_t i = 0; i + 4 <= name.size() && out.kind == CopyKind::kUnknown; ++i)
    if (name[i + 1] == 't' && name[i + 2] == 'o') out.kind = CopyKindFromName(name.substr(i, 4));
  // Kineto's "(Pageable -> Device)", or a memset's "(Device)".
  size_t open = name.rfind('(');
  if (open == std::string_view::npos || name.back() != ')') return out;
  std::string_view inside = name.substr(open + 1, name.size() - open - 2);
  size_t arrow = inside.find(" -> ");
  if (arrow == std::string_view::npos) {
    out.dst = MemoryKindFromName(inside);
    return out;
  }
  out.src = MemoryKindFromName(inside.substr(0, arrow));
  out.dst = MemoryKindFromName(inside.substr(arrow + 4));
  return out;
}

void DeviceArgs::SetCopyKindsFromName(std::string_view name) {
  CopyKinds kinds = CopyKindsOfName(name);
  copy = kinds.kind;
  copy_src = kinds.src;
  copy_dst = kinds.dst;
}

void DeviceArgs::SetSharedMemory(int32_t static_bytes, int32_t dynamic_bytes) {
  if (static_bytes >= 0 && dynamic_bytes >= 0 && int64_t{static_bytes} + dynamic_bytes <= INT32_MAX)
    shared_memory = static_bytes + dynamic_bytes;
}

int32_t BlocksOfWorkItems(int64_t work_items, int32_t workgroup) {
  if (work_items < 0 || workgroup <= 0) return -1;
  int64_t blocks = (work_items + workgroup - 1) / workgroup;
  return blocks <= INT32_MAX ? static_cast<int32_t>(blocks) : -1;
}

}  // namespace profana
