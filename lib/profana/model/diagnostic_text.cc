#include "profana/model/diagnostic_text.h"

#include <cstdint>

#include "fmt/format.h"

namespace profana {

std::string DiagnosticWhere(const DiagnosticSample& s) {
  std::string where = s.byte_offset == UINT64_MAX ? "" : fmt::format("byte {}", s.byte_offset);
  if (s.event_index >= 0)
    where += fmt::format("{}event #{}", where.empty() ? "" : ", ", s.event_index);
  return where;
}

std::string DiagnosticSummary(const std::string& name, const Diagnostics& diag, Severity at_least) {
  std::string kinds;
  uint64_t total = 0;
  for (size_t k = 0; k < kDiagnosticKinds; ++k) {
    auto kind = static_cast<DiagnosticKind>(k);
    if (DiagnosticSeverity(kind) < at_least || diag.count(kind) == 0) continue;
    total += diag.count(kind);
    kinds +=
        fmt::format("{}{} {}", kinds.empty() ? "" : ", ", diag.count(kind), DiagnosticName(kind));
  }
  std::string first;
  for (const DiagnosticSample& s : diag.samples()) {
    if (DiagnosticSeverity(s.kind) < at_least) continue;
    std::string where = DiagnosticWhere(s);
    first = fmt::format("; first: {}{}{}", where, where.empty() ? "" : ": ", s.detail);
    break;
  }
  return fmt::format("{}: {} problem{} ({}){}", name, total, total == 1 ? "" : "s", kinds, first);
}

}  // namespace profana
