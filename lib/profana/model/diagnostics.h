// Diagnostics: counted, located problems with single events that did not stop the import
// (perfetto's stats table idea). The importer records them; `profana info` prints them, each
// command warns with one line, and --strict turns error-severity ones into exit code 2.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace profana {

// X(id, severity, description)
#define PROFANA_DIAGNOSTICS(X)                                                                    \
  X(kTruncatedInput, kError, "input ends early; events after the last complete one lost")         \
  X(kTrailingContent, kWarning, "bytes after the end of the JSON value (ignored)")                \
  X(kMissingField, kError, "event lacks a required field (ph, ts, dur for X)")                    \
  X(kWrongFieldType, kError, "a field has the wrong JSON type")                                   \
  X(kNegativeDuration, kError, "event with negative dur (kept with dur 0)")                       \
  X(kBadNumber, kError, "number out of range or unparsable")                                      \
  X(kDroppedField, kWarning,                                                                      \
    "an args value out of range (an id past 2^63); field dropped, event kept")                    \
  X(kUnmatchedEnd, kError, "E event without a matching B on its thread")                          \
  X(kUnmatchedBegin, kWarning, "a range (B event, nvprof marker) that never ended")               \
  X(kUnknownPhase, kInfo, "event phase profana does not use")                                     \
  X(kUnknownCategory, kInfo, "complete event with a category profana does not analyse")           \
  X(kFlowWithoutStart, kInfo, "flow end (ph f) whose start (ph s) is missing")                    \
  X(kKernelWithoutLaunch, kInfo, "device activity whose launch could not be found")               \
  X(kExternalIdMismatch, kInfo, "kernel launch's enclosing op disagrees with External id")        \
  X(kUnknownLaunchCallback, kInfo, "device activity correlated with a call that is not a launch") \
  X(kInvalidString, kWarning,                                                                     \
    "text that is not UTF-8, or a lone UTF-16 surrogate escape (kept as U+FFFD)")                 \
  X(kMismatchedEnd, kWarning, "E event whose name differs from the B it closes (closed anyway)")  \
  X(kWalNotRead, kWarning, "a SQLite database's write-ahead log (FILE-wal) holds changes not read")

enum class Severity : uint8_t { kInfo, kWarning, kError };

enum class DiagnosticKind : uint8_t {
#define PROFANA_DIAG_ENUM(id, sev, desc) id,
  PROFANA_DIAGNOSTICS(PROFANA_DIAG_ENUM)
#undef PROFANA_DIAG_ENUM
      kCount
};

constexpr size_t kDiagnosticKinds = static_cast<size_t>(DiagnosticKind::kCount);

const char* DiagnosticName(DiagnosticKind kind);  // "truncated_input"
const char* DiagnosticDescription(DiagnosticKind kind);
Severity DiagnosticSeverity(DiagnosticKind kind);
// The kind whose DiagnosticName is `name`; false when there is none (a newer profana's kind).
bool DiagnosticKindByName(std::string_view name, DiagnosticKind* kind);

struct DiagnosticSample {
  DiagnosticKind kind;
  uint64_t byte_offset;  // in the (uncompressed) input; UINT64_MAX when unknown
  int64_t event_index;   // position in the input's event array; -1 when unknown
  std::string detail;
};

class Diagnostics {
 public:
  static constexpr size_t kMaxSamplesPerKind = 5;

  void Add(DiagnosticKind kind, uint64_t byte_offset, int64_t event_index, std::string detail);
  // Counts `n` more of `kind` without a sample (their first few were added with Add).
  void AddUnsampled(DiagnosticKind kind, uint64_t n) { counts_[static_cast<size_t>(kind)] += n; }
  uint64_t count(DiagnosticKind kind) const { return counts_[static_cast<size_t>(kind)]; }
  uint64_t CountAtLeast(Severity severity) const;
  const std::vector<DiagnosticSample>& samples() const { return samples_; }
  bool empty() const;
  // Restoring diagnostics saved elsewhere (the native format): counts and samples as they were.
  void SetCount(DiagnosticKind kind, uint64_t n) { counts_[static_cast<size_t>(kind)] = n; }
  void AddSample(DiagnosticSample sample) { samples_.push_back(std::move(sample)); }

 private:
  std::array<uint64_t, kDiagnosticKinds> counts_{};
  std::vector<DiagnosticSample> samples_;
};

}  // namespace profana
