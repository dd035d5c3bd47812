#include "profana/model/event_roles.h"

namespace profana {
namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

// `word` is lower-case ASCII letters. Runs once per device activity over names hundreds of bytes
// long (template arguments), so it folds case inline: c | 0x20 is c's lower case for an ASCII
// letter and never a letter for another byte (std::tolower, a call per byte, was 7 % of `steps`).
bool ContainsNoCase(std::string_view s, std::string_view word) {
  if (word.empty()) return true;
  for (size_t i = 0; i + word.size() <= s.size(); ++i) {
    size_t k = 0;
    while (k < word.size() && (static_cast<unsigned char>(s[i + k]) | 0x20) == word[k]) ++k;
    if (k == word.size()) return true;
  }
  return false;
}

int64_t StepNumberOf(const Trace& t, uint32_t e) {
  ActivityKind k = t.events.kind[e];
  if (!IsOpOrAnnotation(k)) return -1;
  std::string_view name = t.str(t.events.trace_name[e]);
  constexpr std::string_view kPrefix = "ProfilerStep#";
  if (!StartsWith(name, kPrefix) || name.size() == kPrefix.size() ||
      name.size() > kPrefix.size() + 18)
    return -1;
  int64_t n = 0;
  for (char c : name.substr(kPrefix.size())) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n;
}

MemoryOp MemoryOpOf(const Trace& t, uint32_t e) {
  ActivityKind k = t.events.kind[e];
  std::string_view name = t.str(t.events.trace_name[e]);
  if (k == ActivityKind::kMemset || StartsWith(name, "Memset") ||
      name.find("CUDA memset") != std::string_view::npos)
    return MemoryOp::kMemset;
  if (k == ActivityKind::kMemcpy || StartsWith(name, "Memcpy") ||
      name.find("CUDA memcpy") != std::string_view::npos)
    return MemoryOp::kMemcpy;
  return MemoryOp::kNone;
}

DeviceCategory CategoryOf(const Trace& t, uint32_t e) {
  switch (t.events.kind[e]) {
    case ActivityKind::kMemcpy:
    case ActivityKind::kMemset:
      return DeviceCategory::kMemory;
    case ActivityKind::kKernel: {
      std::string_view name = t.str(t.events.trace_name[e]);
      if (ContainsNoCase(name, "nccl") || ContainsNoCase(name, "rccl"))
        return DeviceCategory::kCommunication;
      if (MemoryOpOf(t, e) != MemoryOp::kNone) return DeviceCategory::kMemory;
      return DeviceCategory::kComputation;
    }
    default:
      return DeviceCategory::kNone;
  }
}

}  // namespace profana
