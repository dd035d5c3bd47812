#include "profana/importers/nvprof/nvprof_importer.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "fmt/format.h"
#include "profana/importers/nvprof/cupti_names.h"
#include "profana/importers/sqlite/cupti_launch.h"
#include "profana/importers/sqlite/database.h"
#include "profana/importers/sqlite/query.h"
#include "profana/importers/sqlite/string_ids.h"
#include "profana/importers/sqlite/table_importer.h"
#include "profana/model/kineto_category.h"
#include "profana/model/trace_builder.h"

namespace profana::nvprof {
namespace {

using sqlite::Database;
using sqlite::Query;

// nvprof writes kernels to CONCURRENT_KERNEL, or to KERNEL when concurrent kernel tracing was
// off (older nvprof, --concurrent-kernels off, --analysis-metrics runs): both are read.
constexpr const char* kKernelTables[] = {"CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL",
                                         "CUPTI_ACTIVITY_KIND_KERNEL"};

class Importer : sqlite::TableImporter {
 public:
  Importer(Database& db, const InputBuffer& input)
      : TableImporter(db, input, TraceFormat::kNvprofSqlite) {}
  Result<Trace> Run();

 private:
  Status CheckSchema();
  Status ReadStrings();
  Status ReadDevices();
  Status ReadMarkers();
  Status ReadApiCalls(const char* table, ActivityKind kind);
  Status ReadKernels(const char* table);
  // A device activity row whose first columns (start, end, device, stream, correlation, and the
  // table's name or kind column when `extra`) are not integers, or whose times are out of order:
  // noted in the diagnostics, skipped.
  bool BadActivity(Query& q, bool extra);
  void AddActivity(const Query& q, StringId name, StringId category, ActivityKind kind,
                   const DeviceArgs* args = nullptr);
  Status ReadMemcpys();
  Status ReadMemsets();
  void CheckLaunches();

  StringId KernelName(int64_t id);
  // nvprof stores 32-bit thread ids, signed in API tables and unsigned in marker object ids.
  ThreadId CpuThread(int64_t pid, int64_t tid) {
    return b_.Thread(static_cast<uint32_t>(pid), static_cast<uint32_t>(tid));
  }

  std::vector<StringId> demangled_;  // string id -> demangled kernel name (0 = not yet)
  struct Launch {
    int64_t cbid;
    bool driver;
  };
  std::unordered_map<int64_t, Launch> launch_cbid_;  // correlation id -> API call
  struct KernelRow {
    int64_t correlation, row;
    const char* table;
  };
  std::vector<KernelRow> kernel_rows_;
  uint64_t markers_ = 0;
};

Status Importer::CheckSchema() {
  std::vector<std::string> missing;
  for (const char* t : {"StringTable", "CUPTI_ACTIVITY_KIND_RUNTIME", kKernelTables[0],
                        "CUPTI_ACTIVITY_KIND_MARKER"}) {
    // Either kernel table will do.
    if (t == kKernelTables[0] && db_.HasTable(kKernelTables[1])) continue;
    if (!db_.HasTable(t)) missing.push_back(t);
  }
  if (missing.empty()) return Status::Ok();
  std::string list;
  for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
  return Status(ErrorCode::kUnrecognizedFormat,
                fmt::format("{}: SQLite database, but not an nvprof profile: missing table{} {}",
                            file_, missing.size() > 1 ? "s" : "", list));
}

Status Importer::ReadStrings() {
  Query q(db_, "StringTable", {"_id_", "value"}, "nvprof");
  return strings_.Read(q, b_);
}

StringId Importer::KernelName(int64_t id) {
  StringId raw = String(id);
  if (demangled_.size() <= raw.value) demangled_.resize(raw.value + 1, StringId(0));
  StringId& cached = demangled_[raw.value];
  if (cached.value == 0) {
    std::string name(b_.str(raw));
    // Only mangled C++ names are demangled; extern "C" kernels and one-letter names stay.
    int rc = -1;
    char* out = name.size() > 2 && name.compare(0, 2, "_Z") == 0
                    ? abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &rc)
                    : nullptr;
    cached = rc == 0 && out ? b_.Intern(out) : raw;
    std::free(out);
    if (cached.value == 0) return raw;
  }
  return cached;
}

Status Importer::ReadDevices() {
  if (!db_.HasTable("CUPTI_ACTIVITY_KIND_DEVICE")) return Status::Ok();
  // Devices in id order: few rows, so the sort costs nothing.
  Query q(db_, "CUPTI_ACTIVITY_KIND_DEVICE",
          "SELECT name FROM CUPTI_ACTIVITY_KIND_DEVICE ORDER BY id");
  while (q.Next()) b_.metadata().devices.emplace_back(b_.str(String(q.Int(0))));
  return q.status();
}

Status Importer::ReadMarkers() {
  // A range is a start row (flags 2, a name) and an end row (flags 4, name 0) sharing `id`; the
  // start row's objectId holds the process and thread (CUpti_ActivityObjectKindId).
  enum { kFlags, kTimestamp, kId, kObjectKind, kObjectId, kName };
  Query q(db_, "CUPTI_ACTIVITY_KIND_MARKER",
          {"flags", "timestamp", "id", "objectKind", "objectId", "name"}, "nvprof");
  struct Open {
    int64_t ts;
    StringId name;
    ThreadId thread;
    int64_t row;
  };
  std::unordered_map<int64_t, Open> open;
  q.ReadAhead();
  while (q.Next()) {
    if (q.BadIntegers({kFlags, kTimestamp, kId, kObjectKind, kName}, &b_.diagnostics()) ||
        q.BadTimes(q.Int(kTimestamp), q.Int(kTimestamp), &b_.diagnostics()))
      continue;
    int64_t flags = q.Int(kFlags), ts = q.Int(kTimestamp), id = q.Int(kId), name = q.Int(kName);
    if ((flags & 1) != 0) {  // an instantaneous marker: not a range
      ++b_.metadata().instant_events;
      continue;
    }
    if (name != 0 && (flags & 4) == 0) {
      std::string_view object = q.Blob(kObjectId);
      uint32_t pid = 0, tid = 0;
      if (object.size() >= 4) std::memcpy(&pid, object.data(), 4);
      if (object.size() >= 8 && q.Int(kObjectKind) == 2) std::memcpy(&tid, object.data() + 4, 4);
      open[id] = {ts, String(name), CpuThread(pid, tid), q.row()};
      continue;
    }
    auto it = open.find(id);
    if (it == open.end()) {
      b_.diagnostics().Add(DiagnosticKind::kUnmatchedEnd, UINT64_MAX, -1,
                           fmt::format("{}: end of marker {} without a start", q.Where(), id));
      continue;
    }
    TraceBuilder::Event e;
    e.trace_name = it->second.name;
    e.kind = ActivityKind::kCpuOp;
    e.thread = it->second.thread;
    e.start_ns = it->second.ts;
    e.end_ns = std::max(ts, it->second.ts);
    b_.AddEvent(e);
    ++b_.metadata().raw_events;
    ++markers_;
    open.erase(it);
  }
  // Reported in the order the markers started, whatever the hash map's order.
  std::vector<const Open*> never_ended;
  for (const auto& [id, m] : open) never_ended.push_back(&m);
  std::sort(never_ended.begin(), never_ended.end(),
            [](const Open* a, const Open* b) { return a->row < b->row; });
  for (const Open* m : never_ended)
    b_.diagnostics().Add(
        DiagnosticKind::kUnmatchedBegin, UINT64_MAX, -1,
        fmt::format("table CUPTI_ACTIVITY_KIND_MARKER, row {}: marker \"{}\" never ends; dropped",
                    m->row, sqlite::Excerpt(b_.str(m->name))));
  return q.status();
}

Status Importer::ReadApiCalls(const char* table, ActivityKind kind) {
  if (!db_.HasTable(table)) return Status::Ok();
  enum { kCbid, kStart, kEnd, kProcess, kThread, kCorrelation };
  Query q(db_, table, {"cbid", "start", "end", "processId", "threadId", "correlationId"}, "nvprof");
  bool driver = kind == ActivityKind::kDriver;
  std::unordered_map<int64_t, StringId> names;
  q.ReadAhead();
  while (q.Next()) {
    if (q.BadIntegers({kCbid, kStart, kEnd, kProcess, kThread, kCorrelation}, &b_.diagnostics()) ||
        q.BadTimes(q.Int(kStart), q.Int(kEnd), &b_.diagnostics()))
      continue;
    int64_t cbid = q.Int(kCbid);
    auto [it, inserted] = names.try_emplace(cbid, StringId(0));
    if (inserted) it->second = b_.Intern(driver ? DriverApiName(cbid) : RuntimeApiName(cbid));
    TraceBuilder::Event e;
    e.trace_name = it->second;
    e.kind = kind;
    e.thread = CpuThread(q.Int(kProcess), q.Int(kThread));
    e.start_ns = q.Int(kStart);
    e.end_ns = std::max(q.Int(kEnd), e.start_ns);
    e.correlation = q.Int(kCorrelation);
    b_.AddEvent(e);
    ++b_.metadata().raw_events;
    // A runtime call and the driver call under it share a correlation id: the runtime one names
    // the launch, as nvprof's own report does.
    auto [launch, fresh] = launch_cbid_.try_emplace(e.correlation, Launch{cbid, driver});
    if (!fresh && launch->second.driver && !driver) launch->second = Launch{cbid, driver};
  }
  return q.status();
}

// Device activity rows: one event on the (device, stream) track, as Kineto writes them.
enum { kActStart, kActEnd, kActDevice, kActStream, kActCorrelation, kActExtra };

bool Importer::BadActivity(Query& q, bool extra) {
  Diagnostics* d = &b_.diagnostics();
  bool bad = extra
                 ? q.BadIntegers(
                       {kActStart, kActEnd, kActDevice, kActStream, kActCorrelation, kActExtra}, d)
                 : q.BadIntegers({kActStart, kActEnd, kActDevice, kActStream, kActCorrelation}, d);
  return bad || q.BadTimes(q.Int(kActStart), q.Int(kActEnd), d);
}

void Importer::AddActivity(const Query& q, StringId name, StringId category, ActivityKind kind,
                           const DeviceArgs* args) {
  TraceBuilder::Event e;
  e.trace_name = name;
  e.category = category;
  e.kind = kind;
  e.thread = b_.Thread(q.Int(kActDevice), q.Int(kActStream));
  e.start_ns = q.Int(kActStart);
  e.end_ns = std::max(q.Int(kActEnd), e.start_ns);
  e.correlation = q.Int(kActCorrelation);
  e.device = static_cast<int32_t>(q.Int(kActDevice));
  if (args) e.has_device_args = true, e.device_args = *args;
  b_.AddEvent(e);
  ++b_.metadata().raw_events;
}

Status Importer::ReadKernels(const char* table) {
  if (!db_.HasTable(table)) return Status::Ok();
  enum { kLaunch = kActExtra + 1 };
  Query q(db_, table,
          {"start", "end", "deviceId", "streamId", "correlationId", "name",
           PROFANA_CUPTI_LAUNCH_COLUMNS},
          "nvprof");
  StringId category = b_.Intern(KinetoCategory(ActivityKind::kKernel));
  q.ReadAhead();
  while (q.Next()) {
    if (BadActivity(q, true)) continue;
    DeviceArgs args = sqlite::CuptiLaunch(q, kLaunch);
    AddActivity(q, KernelName(q.Int(kActExtra)), category, ActivityKind::kKernel, &args);
    kernel_rows_.push_back({q.Int(kActCorrelation), q.row(), table});
  }
  return q.status();
}

Status Importer::ReadMemcpys() {
  if (!db_.HasTable("CUPTI_ACTIVITY_KIND_MEMCPY")) return Status::Ok();
  enum { kSrc = kActExtra + 1, kDst, kBytes };
  Query q(db_, "CUPTI_ACTIVITY_KIND_MEMCPY",
          {"start", "end", "deviceId", "streamId", "correlationId", "copyKind", "srcKind?",
           "dstKind?", "bytes?"},
          "nvprof");
  StringId category = b_.Intern(KinetoCategory(ActivityKind::kMemcpy));
  // CUpti_ActivityMemoryKind, whose numbering MemoryKind keeps.
  auto memory = [&](int k) {
    int64_t v = q.IsInteger(k) ? q.Int(k) : 0;
    return v >= 0 && v <= static_cast<int64_t>(MemoryKind::kManagedStatic) ? MemoryKind(v)
                                                                           : MemoryKind::kUnknown;
  };
  q.ReadAhead();
  while (q.Next()) {
    if (BadActivity(q, true)) continue;
    StringId name = b_.Intern(MemcpyName(q.Int(kActExtra)));
    DeviceArgs args;
    args.copy = CopyKindsOfName(b_.str(name)).kind;
    args.copy_src = memory(kSrc);
    args.copy_dst = memory(kDst);
    if (q.IsInteger(kBytes) && q.Int(kBytes) >= 0) args.bytes = q.Int(kBytes);
    AddActivity(q, name, category, ActivityKind::kMemcpy, &args);
  }
  return q.status();
}

Status Importer::ReadMemsets() {
  if (!db_.HasTable("CUPTI_ACTIVITY_KIND_MEMSET")) return Status::Ok();
  enum { kBytes = kActExtra };
  Query q(db_, "CUPTI_ACTIVITY_KIND_MEMSET",
          {"start", "end", "deviceId", "streamId", "correlationId", "bytes?"}, "nvprof");
  StringId name = b_.Intern("Memset"), category = b_.Intern(KinetoCategory(ActivityKind::kMemset));
  q.ReadAhead();
  while (q.Next()) {
    if (BadActivity(q, false)) continue;
    DeviceArgs args;
    if (q.IsInteger(kBytes) && q.Int(kBytes) >= 0) args.bytes = q.Int(kBytes);
    AddActivity(q, name, category, ActivityKind::kMemset, &args);
  }
  return q.status();
}

// The reference asserts that a kernel's runtime call is a launch (cbid 211 or 13); profana counts
// kernels whose call is missing or is not a known launch instead.
void Importer::CheckLaunches() {
  for (const KernelRow& k : kernel_rows_) {
    auto it = launch_cbid_.find(k.correlation);
    if (it == launch_cbid_.end()) {
      b_.diagnostics().Add(
          DiagnosticKind::kKernelWithoutLaunch, UINT64_MAX, -1,
          fmt::format("table {}, row {}: correlation id {} matches no runtime call", k.table, k.row,
                      k.correlation));
      continue;
    }
    const Launch& l = it->second;
    if (l.driver ? IsDriverLaunchCallback(l.cbid) : IsLaunchCallback(l.cbid)) continue;
    b_.diagnostics().Add(
        DiagnosticKind::kUnknownLaunchCallback, UINT64_MAX, -1,
        fmt::format("table {}, row {}: launched by {} (cbid {})", k.table, k.row,
                    l.driver ? DriverApiName(l.cbid) : RuntimeApiName(l.cbid), l.cbid));
  }
}

Result<Trace> Importer::Run() {
  PROFANA_RETURN_IF_ERROR(CheckSchema());
  if (db_.HasTable("Version")) {
    Query q(db_, "Version", {"version"}, "nvprof");
    if (q.Next()) b_.metadata().schema_version = q.Int(0);
    PROFANA_RETURN_IF_ERROR(q.status());
  }
  PROFANA_RETURN_IF_ERROR(ReadStrings());
  PROFANA_RETURN_IF_ERROR(ReadDevices());
  PROFANA_RETURN_IF_ERROR(ReadMarkers());
  PROFANA_RETURN_IF_ERROR(ReadApiCalls("CUPTI_ACTIVITY_KIND_RUNTIME", ActivityKind::kRuntime));
  PROFANA_RETURN_IF_ERROR(ReadApiCalls("CUPTI_ACTIVITY_KIND_DRIVER", ActivityKind::kDriver));
  for (const char* table : kKernelTables) PROFANA_RETURN_IF_ERROR(ReadKernels(table));
  PROFANA_RETURN_IF_ERROR(ReadMemcpys());
  PROFANA_RETURN_IF_ERROR(ReadMemsets());
  CheckLaunches();
  db_.NoteProblems(&b_.diagnostics());
  // PyTorch reads nvprof profiles legacy-style: the markers are the events, and each carries the
  // kernels launched inside it (no runtime or kernel rows of their own). A profile without markers
  // (not made with emit_nvtx) would then show nothing: its calls and kernels are listed instead.
  b_.metadata().legacy_kernels = markers_ > 0;
  return std::move(b_).Finish();
}

}  // namespace

bool SniffSqlite(std::string_view bytes) { return sqlite::HasSqliteMagic(bytes); }

Result<Trace> ImportNvprof(const InputBuffer& input) {
  // The last SQLite format tried: a database profana wrote is answered by `profana sql`.
  if (sqlite::IsProfanaDatabaseHeader(input.view()))
    return Status(ErrorCode::kUnrecognizedFormat,
                  fmt::format("{}: a database profana wrote (docs/sql.md), not a trace: query it "
                              "with profana sql {} \"SELECT ...\"",
                              input.name, input.name));
  PROFANA_ASSIGN_OR_RETURN(std::unique_ptr<Database> db, Database::Open(input));
  return Importer(*db, input).Run();
}

}  // namespace profana::nvprof
