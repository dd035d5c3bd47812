#include "profana/importers/rocm/hip_names.h"

#include <cctype>

#include "fmt/format.h"
#include "profana/model/kineto_category.h"

namespace profana::rocm {
namespace {

// "HostToDevice" / "HOST_TO_DEVICE" -> the two ends, as words Kineto prints.
struct End {
  std::string_view word;  // as written, upper or camel case
  const char* letter;
  const char* name;
};
constexpr End kEnds[] = {{"Host", "H", "Host"}, {"Device", "D", "Device"}, {"Peer", "P", "Peer"}};

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

const End* FindEnd(std::string_view word) {
  for (const End& e : kEnds)
    if (EqualsIgnoringCase(word, e.word)) return &e;
  return nullptr;
}

}  // namespace

ActivityKind HostCallKind(std::string_view api_name) {
  if (api_name.substr(0, 3) == "hip" || api_name.substr(0, 4) == "nccl" ||
      api_name.substr(0, 4) == "rccl")
    return ActivityKind::kRuntime;
  if (api_name.substr(0, 4) == "hsa_") return ActivityKind::kDriver;
  return ActivityKind::kCpuOther;
}

const char* CategoryOf(ActivityKind kind) {
  // Kineto's cuda_sync, which stands for other device activity, would misname a ROCm op that is
  // no kernel, copy or fill: it gets none, and the Chrome-trace writer picks one for the kind.
  return kind == ActivityKind::kDeviceOther ? "" : KinetoCategory(kind);
}

std::string CopyName(std::string_view direction) {
  // Split at "To" / "_TO_".
  std::string_view from, to;
  size_t at = direction.find("_TO_");
  if (at != std::string_view::npos) {
    from = direction.substr(0, at);
    to = direction.substr(at + 4);
  } else if ((at = direction.find("To")) != std::string_view::npos) {
    from = direction.substr(0, at);
    to = direction.substr(at + 2);
  }
  const End* a = FindEnd(from);
  const End* b = FindEnd(to);
  if (!a || !b) return fmt::format("Memcpy {}", direction);
  return fmt::format("Memcpy {}to{} ({} -> {})", a->letter, b->letter, a->name, b->name);
}

}  // namespace profana::rocm
