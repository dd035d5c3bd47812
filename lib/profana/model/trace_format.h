// The format a trace was read from: one name each (what `info`, the table's JSON, summaries,
// native files and the SQL output write), and every rule that depends on the format, written
// once here so that no pass, writer or job analysis tests a format by its name.
#pragma once

#include <cstdint>
#include <string_view>

namespace profana {

enum class TraceFormat : uint8_t {
  kUnknown,          // not recorded (a native file of a format this build does not name)
  kKinetoJson,       // Kineto's {"traceEvents": ...} object
  kChromeJsonArray,  // PyTorch's bare-array Chrome-trace export
  kRocprofv3Json,    // rocprofv3 --output-format json
  kNsysSqlite,       // nsys export --type sqlite
  kNvprofSqlite,     // nvprof -o FILE
  kRocmRpd,          // rocmProfileData
  kRocpd,            // rocprofiler-sdk's rocpd database
};

// "kineto-json", "chrome-json-array", "rocprofv3-json", "nsys-sqlite", "nvprof-sqlite",
// "rocm-rpd", "rocpd"; "" for kUnknown.
std::string_view TraceFormatName(TraceFormat format);
// The format of that name; kUnknown for any other.
TraceFormat TraceFormatNamed(std::string_view name);

// Chrome-trace JSON as PyTorch writes it (Kineto's object or the bare-array export): the events
// Kineto places on its own tracks, and a header that records the profiler's options.
constexpr bool IsChromeTraceJson(TraceFormat f) {
  return f == TraceFormat::kKinetoJson || f == TraceFormat::kChromeJsonArray;
}
// Whether the header records the profiler's options (record_shapes, with_stack, ...).
constexpr bool RecordsProfilerOptions(TraceFormat f) { return f == TraceFormat::kKinetoJson; }
// Whether times count from the first event rather than an epoch: the bare-array export.
constexpr bool HasRelativeTimes(TraceFormat f) { return f == TraceFormat::kChromeJsonArray; }
// Whether the file is JSON text whose events can be found again by byte offset.
constexpr bool IsJsonText(TraceFormat f) {
  return IsChromeTraceJson(f) || f == TraceFormat::kRocprofv3Json;
}
// Whether one file records a whole node on one clock, so that the ranks it holds share it.
constexpr bool RecordsNodeClock(TraceFormat f) {
  return f == TraceFormat::kNsysSqlite || f == TraceFormat::kRocpd || f == TraceFormat::kRocmRpd;
}

}  // namespace profana
