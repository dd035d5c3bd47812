#include <memory>

#include "fmt/format.h"
#include "profana/base/mapped_file.h"
#include "profana/importers/chrome_json/chrome_json_importer.h"
#include "profana/importers/chrome_json/streaming_import.h"
#include "profana/importers/importer.h"
#include "profana/importers/native/native_importer.h"
#include "profana/importers/nsys/nsys_importer.h"
#include "profana/importers/nvprof/nvprof_importer.h"
#include "profana/importers/rocm/rocpd_importer.h"
#include "profana/importers/rocm/rocprofv3_json_importer.h"
#include "profana/importers/rocm/rpd_importer.h"
#include "profana/io/native_reader.h"

namespace profana {

const std::vector<ImporterInfo>& Importers() {
  static const std::vector<ImporterInfo> kImporters = {
      // Before chrome-json: both are JSON objects, this one's first key says which.
      {"rocprofv3-json",
       "rocprofv3 JSON (rocprofv3 --output-format json): kernel dispatches, memory copies, "
       "HIP/HSA calls, roctx ranges, agents",
       rocm::SniffRocprofv3Json, rocm::ImportRocprofv3Json},
      {"chrome-json",
       "Chrome trace JSON: Kineto {\"traceEvents\": ...} objects and bare-array exports, plain or "
       "gzip",
       json::SniffChromeJson, json::ImportChromeJson},
      // SQLite formats are told apart by their tables; nvprof comes last and takes any other
      // SQLite file, to say which of its tables are missing.
      {"nsys-sqlite",
       "Nsight Systems SQLite export (nsys export --type sqlite): CUDA activity and NVTX ranges, "
       "PyTorch's emit_nvtx / --pytorch=autograd-nvtx ranges as ops",
       nsys::SniffNsys, nsys::ImportNsys},
      {"rocm-rpd",
       "rocmProfileData (RPD) SQLite database (runTracer.sh): HIP calls, GPU ops, roctx ranges "
       "(PyTorch's as ops)",
       rocm::SniffRpd, rocm::ImportRpd},
      {"rocpd",
       "rocpd SQLite database of rocprofiler-sdk (rocprofv3 --output-format rocpd): kernel "
       "dispatches, memory copies, HIP/HSA calls and roctx regions, agents",
       rocm::SniffRocpd, rocm::ImportRocpd},
      {"nvprof", "nvprof SQLite database (nvprof -o FILE), with emit_nvtx markers",
       nvprof::SniffSqlite, nvprof::ImportNvprof},
      {"profana-native",
       "profana's native binary file (profana convert IN -o OUT.pfa; docs/native-format.md)",
       native::SniffNativeBinary, native::ImportNativeBinary},
      {"profana-native-text", "the native format's text twin (profana convert IN -o OUT.txt)",
       native::SniffNativeTextFile, native::ImportNativeText},
  };
  return kImporters;
}

const ImporterInfo* DetectFormat(std::string_view bytes) {
  for (const ImporterInfo& info : Importers())
    if (info.sniff(bytes)) return &info;
  return nullptr;
}

Result<Trace> LoadTraceFromBuffer(const InputBuffer& input) {
  if (input.size == 0) {
    if (input.gzip_truncated)
      return Status(ErrorCode::kTruncated,
                    fmt::format("{}: compressed byte {}: gzip stream ends before any data",
                                input.name, input.gzip_truncated_at));
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: byte 0: empty input, not a trace", input.name));
  }
  const ImporterInfo* info = DetectFormat(input.view());
  if (!info) {
    return Status(ErrorCode::kUnrecognizedFormat,
                  fmt::format("{}: byte 0: unrecognized format (not JSON or SQLite{}; `profana "
                              "--help` lists the formats profana reads)",
                              input.name, input.gzipped ? " after gunzip" : ""));
  }
  return info->import(input);
}

Result<Trace> LoadTrace(const std::string& path, const LoadOptions& options) {
  // The native file's fast path: map it and hand the columns over, no copy of the whole file.
  if (path != "-") {
    auto mapped = MappedFile::Open(path);
    if (mapped.ok() && native::SniffNative(mapped->bytes())) {
      uint64_t limit = options.limits.max_bytes, size = mapped->bytes().size();
      if (limit && size > limit)  // the analyses grow with it: the same budget as any input
        return TooLargeError(path, "byte 0", "is " + FormatByteSize(size) + ", more than", limit);
      // The trace's columns read the mapping in place, and keep it alive.
      auto shared = std::make_shared<MappedFile>(std::move(*mapped));
      PROFANA_ASSIGN_OR_RETURN(Trace trace, native::ReadNative(shared->bytes(), path, shared));
      native::SetContainer(&trace, "profana-native", size);
      return trace;
    }
    // JSON, plain or gzipped, streams through a bounded window on all cores. Anything unusual
    // (damage, truncation, not JSON) comes back without a trace, and the whole-file path below
    // repairs or reports it.
    json::StreamOptions stream;
    stream.max_bytes = options.limits.max_bytes;
    json::StreamAttempt streamed = json::StreamChromeJson(path, stream);
    if (streamed.trace) return std::move(*streamed.trace);
  }
  PROFANA_ASSIGN_OR_RETURN(InputBuffer input, ReadInput(path, options.limits));
  return LoadTraceFromBuffer(input);
}

}  // namespace profana
