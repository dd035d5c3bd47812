#include "fmt/format.h"
#include "profana/base/utf8.h"
#include "profana/importers/allocator_snapshot/snapshot_importer.h"
#include "profana/importers/chrome_json/chrome_json_importer.h"
#include "profana/importers/importer.h"
#include "profana/importers/native/native_importer.h"
#include "profana/importers/nsys/nsys_importer.h"
#include "profana/importers/nvprof/nvprof_importer.h"
#include "profana/importers/rocm/rocpd_importer.h"
#include "profana/importers/rocm/rocprofv3_json_importer.h"
#include "profana/importers/rocm/rpd_importer.h"
#include "profana/model/trace_sums.h"

namespace profana {
namespace {

// The importers of formats that cannot store a function event index.
template <Result<Trace> (*Import)(const InputBuffer&)>
Result<LoadedTrace> TraceOnly(const InputBuffer& input) {
  PROFANA_ASSIGN_OR_RETURN(Trace trace, Import(input));
  return LoadedTrace{std::move(trace), std::nullopt};
}
template <Result<std::optional<Trace>> (*Open)(InputFile&, const LoadOptions&)>
Result<std::optional<LoadedTrace>> TraceOnlyOpen(InputFile& file, const LoadOptions& options) {
  PROFANA_ASSIGN_OR_RETURN(std::optional<Trace> trace, Open(file, options));
  if (!trace) return std::optional<LoadedTrace>();
  return std::optional<LoadedTrace>(LoadedTrace{std::move(*trace), std::nullopt});
}

}  // namespace

const std::vector<ImporterInfo>& Importers() {
  static const std::vector<ImporterInfo> kImporters = {
      // Before chrome-json: both are JSON objects, this one's first key says which.
      {"rocprofv3-json", "rocprofv3 JSON",
       "rocprofv3 JSON (rocprofv3 --output-format json): kernel dispatches, memory copies, "
       "HIP/HSA calls, roctx ranges, agents",
       rocm::SniffRocprofv3Json, TraceOnly<rocm::ImportRocprofv3Json>, nullptr},
      {"chrome-json", "Chrome-trace JSON",
       "Chrome trace JSON: Kineto {\"traceEvents\": ...} objects and bare-array exports, plain or "
       "gzip",
       json::SniffChromeJson, TraceOnly<json::ImportChromeJson>,
       TraceOnlyOpen<json::OpenChromeJson>},
      // SQLite formats are told apart by their tables; nvprof comes last and takes any other
      // SQLite file, to say which of its tables are missing.
      {"nsys-sqlite", "Nsight Systems SQLite exports",
       "Nsight Systems SQLite export (nsys export --type sqlite): CUDA activity and NVTX ranges, "
       "PyTorch's emit_nvtx / --pytorch=autograd-nvtx ranges as ops",
       nsys::SniffNsys, TraceOnly<nsys::ImportNsys>, nullptr},
      {"rocm-rpd", "rocmProfileData databases",
       "rocmProfileData (RPD) SQLite database (runTracer.sh): HIP calls, GPU ops, roctx ranges "
       "(PyTorch's as ops)",
       rocm::SniffRpd, TraceOnly<rocm::ImportRpd>, nullptr},
      {"rocpd", "rocpd databases",
       "rocpd SQLite database of rocprofiler-sdk (rocprofv3 --output-format rocpd): kernel "
       "dispatches, memory copies, HIP/HSA calls and roctx regions, agents",
       rocm::SniffRocpd, TraceOnly<rocm::ImportRocpd>, nullptr},
      {"nvprof-sqlite", "nvprof databases",
       "nvprof SQLite database (nvprof -o FILE), with emit_nvtx markers", nvprof::SniffSqlite,
       TraceOnly<nvprof::ImportNvprof>, nullptr},
      {"profana-native", "profana native files",
       "profana's native binary file (profana convert IN -o OUT.pfa; docs/native-format.md)",
       native::SniffNativeBinary, native::ImportNativeBinary, native::OpenNativeBinary},
      {"profana-native-text", "native text twins",
       "the native format's text twin (profana convert IN -o OUT.txt)", native::SniffNativeTextFile,
       TraceOnly<native::ImportNativeText>, nullptr},
  };
  return kImporters;
}

std::string FormatsSummary() {
  std::string out;
  const std::vector<ImporterInfo>& rows = Importers();
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i) out += i + 1 == rows.size() ? " and " : ", ";
    out += rows[i].noun;
  }
  return out;
}

const ImporterInfo* DetectFormat(std::string_view bytes) {
  for (const ImporterInfo& info : Importers())
    if (info.sniff(bytes)) return &info;
  return nullptr;
}

namespace {

// Whether an input starting with these bytes may be a trace: gzip (judged after gunzip), a
// format's magic, or nothing but spaces so far (JSON may start later). When not, DetectFormat
// says no to the whole input too, so reading it to the end would only cost time.
bool CouldStartTrace(std::string_view first_bytes) {
  if (HasGzipMagic(first_bytes) || DetectFormat(first_bytes)) return true;
  std::string_view rest =
      first_bytes.substr(0, 3) == "\xEF\xBB\xBF" ? first_bytes.substr(3) : first_bytes;
  return rest.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

}  // namespace

Result<LoadedTrace> LoadTraceFromBuffer(const InputBuffer& input) {
  if (input.size == 0) {
    if (input.gzip_truncated)
      return Status(ErrorCode::kTruncated,
                    fmt::format("{}: compressed byte {}: gzip stream ends before any data",
                                input.name, input.gzip_truncated_at));
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: byte 0: empty input, not a trace", input.name));
  }
  const ImporterInfo* info = DetectFormat(input.view());
  if (!info && snapshot::SniffPickle(input.view()))
    return Status(ErrorCode::kUnrecognizedFormat,
                  fmt::format("{}: byte 0: a pickle (a CUDA allocator snapshot?), not a trace: "
                              "profana memory and profana diff read allocator snapshots",
                              input.name));
  if (!info) {
    if (const char* encoding = OtherUnicodeEncoding(input.view().substr(0, 8)))
      return Status(ErrorCode::kUnrecognizedFormat,
                    fmt::format("{}: byte 0: {} text; profana reads traces in UTF-8 (as JSON is "
                                "written): convert it first, e.g. iconv -f {} -t UTF-8",
                                input.name, encoding, encoding));
    return Status(ErrorCode::kUnrecognizedFormat,
                  fmt::format("{}: byte 0: unrecognized format (not JSON{}; profana reads {})",
                              input.name, input.gzipped ? " after gunzip" : "", FormatsSummary()));
  }
  PROFANA_ASSIGN_OR_RETURN(LoadedTrace loaded, info->import(input));
  PROFANA_RETURN_IF_ERROR(CheckSumsFit(loaded.trace, input.name));
  return loaded;
}

Result<LoadedTrace> LoadTrace(const std::string& path, const LoadOptions& options) {
  PROFANA_ASSIGN_OR_RETURN(InputFile file, InputFile::Open(path));
  return LoadTrace(file, options);
}

Result<LoadedTrace> LoadTrace(InputFile& file, const LoadOptions& options) {
  const std::string& path = file.path();
  auto unread = [&](LoadedTrace loaded) {
    LeaveUnread(options.unread, &loaded.trace);
    return loaded;
  };
  if (file.regular()) {  // standard input, a pipe, can be read only once: whole
    for (const ImporterInfo& info : Importers()) {
      if (!info.open) continue;
      PROFANA_ASSIGN_OR_RETURN(std::optional<LoadedTrace> loaded, info.open(file, options));
      if (!loaded) continue;
      PROFANA_RETURN_IF_ERROR(CheckSumsFit(loaded->trace, path));
      return unread(std::move(*loaded));
    }
  }
  InputLimits limits = options.limits;
  limits.could_start = CouldStartTrace;
  PROFANA_ASSIGN_OR_RETURN(InputBuffer input, ReadInput(file, limits));
  PROFANA_ASSIGN_OR_RETURN(LoadedTrace loaded, LoadTraceFromBuffer(input));
  return unread(std::move(loaded));
}

}  // namespace profana
