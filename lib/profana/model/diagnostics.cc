#include "profana/model/diagnostics.h"

#include <cctype>

namespace profana {
namespace {

struct Info {
  const char* id;
  Severity severity;
  const char* description;
};

constexpr Info kInfos[] = {
#define PROFANA_DIAG_INFO(id, sev, desc) {#id, Severity::sev, desc},
    PROFANA_DIAGNOSTICS(PROFANA_DIAG_INFO)
#undef PROFANA_DIAG_INFO
};

// "kTruncatedInput" -> "truncated_input", computed once.
struct SnakeNames {
  std::string names[kDiagnosticKinds];
  SnakeNames() {
    for (size_t i = 0; i < kDiagnosticKinds; ++i) {
      const char* id = kInfos[i].id + 1;  // skip the 'k'
      for (const char* p = id; *p; ++p) {
        if (std::isupper(static_cast<unsigned char>(*p))) {
          if (p != id) names[i] += '_';
          names[i] += static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
        } else {
          names[i] += *p;
        }
      }
    }
  }
};

}  // namespace

const char* DiagnosticName(DiagnosticKind kind) {
  static const SnakeNames names;
  return names.names[static_cast<size_t>(kind)].c_str();
}
const char* DiagnosticDescription(DiagnosticKind kind) {
  return kInfos[static_cast<size_t>(kind)].description;
}
bool DiagnosticKindByName(std::string_view name, DiagnosticKind* kind) {
  for (size_t i = 0; i < kDiagnosticKinds; ++i) {
    if (name == DiagnosticName(static_cast<DiagnosticKind>(i))) {
      *kind = static_cast<DiagnosticKind>(i);
      return true;
    }
  }
  return false;
}

Severity DiagnosticSeverity(DiagnosticKind kind) {
  return kInfos[static_cast<size_t>(kind)].severity;
}

void Diagnostics::Add(DiagnosticKind kind, uint64_t byte_offset, int64_t event_index,
                      std::string detail) {
  uint64_t& n = counts_[static_cast<size_t>(kind)];
  if (n++ < kMaxSamplesPerKind)
    samples_.push_back(DiagnosticSample{kind, byte_offset, event_index, std::move(detail)});
}

uint64_t Diagnostics::CountAtLeast(Severity severity) const {
  uint64_t total = 0;
  for (size_t i = 0; i < kDiagnosticKinds; ++i)
    if (kInfos[i].severity >= severity) total += counts_[i];
  return total;
}

bool Diagnostics::empty() const {
  for (uint64_t c : counts_)
    if (c) return false;
  return true;
}

}  // namespace profana
