#include "profana/model/trace_format.h"

namespace profana {
namespace {

constexpr TraceFormat kNamed[] = {
    TraceFormat::kKinetoJson, TraceFormat::kChromeJsonArray, TraceFormat::kRocprofv3Json,
    TraceFormat::kNsysSqlite, TraceFormat::kNvprofSqlite,    TraceFormat::kRocmRpd,
    TraceFormat::kRocpd,
};

}  // namespace

std::string_view TraceFormatName(TraceFormat format) {
  switch (format) {
    case TraceFormat::kUnknown:
      return "";
    case TraceFormat::kKinetoJson:
      return "kineto-json";
    case TraceFormat::kChromeJsonArray:
      return "chrome-json-array";
    case TraceFormat::kRocprofv3Json:
      return "rocprofv3-json";
    case TraceFormat::kNsysSqlite:
      return "nsys-sqlite";
    case TraceFormat::kNvprofSqlite:
      return "nvprof-sqlite";
    case TraceFormat::kRocmRpd:
      return "rocm-rpd";
    case TraceFormat::kRocpd:
      return "rocpd";
  }
  return "";
}

TraceFormat TraceFormatNamed(std::string_view name) {
  for (TraceFormat f : kNamed)
    if (TraceFormatName(f) == name) return f;
  return TraceFormat::kUnknown;
}

}  // namespace profana
