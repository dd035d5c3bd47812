#include "profana/importers/nsys/nsys_importer.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "fmt/format.h"
#include "profana/importers/common/pytorch_range.h"
#include "profana/importers/sqlite/cupti_launch.h"
#include "profana/importers/sqlite/database.h"
#include "profana/importers/sqlite/query.h"
#include "profana/importers/sqlite/string_ids.h"
#include "profana/importers/sqlite/table_importer.h"
#include "profana/model/kineto_category.h"
#include "profana/model/trace_builder.h"

namespace profana::nsys {
namespace {

using sqlite::Database;
using sqlite::Query;

constexpr const char* kKernel = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr const char* kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr const char* kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr const char* kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";
constexpr const char* kSync = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
// `nsys profile --cuda-graph-trace=graph`: one row per graph execution instead of its kernels.
constexpr const char* kGraphTrace = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE";
constexpr const char* kNvtx = "NVTX_EVENTS";

// NVTX_EVENTS.eventType (ENUM_NSYS_EVENT_TYPE).
constexpr int64_t kNvtxMark = 34, kNvtxPushPop = 59, kNvtxStartEnd = 60;

// A serialized GlobalId holds the process in bits 24..47 and the thread in bits 0..23 (nsys's
// documented decoding: pid = (globalTid >> 24) & 0xFFFFFF, tid = globalTid & 0xFFFFFF).
int64_t PidOf(int64_t global_id) { return (global_id >> 24) & 0xFFFFFF; }
int64_t TidOf(int64_t global_id) { return global_id & 0xFFFFFF; }

// CUPTI's correlation ids count per process; two processes of one export reuse them. The key
// joins the process to the id (ids are 32-bit in CUPTI), so a launch finds its own kernels.
int64_t CorrelationKey(int64_t pid, int64_t correlation) {
  return (pid << 32) | (correlation & 0xFFFFFFFF);
}

// CUpti_ActivityMemcpyKind as Kineto spells it ("Memcpy HtoD (Pageable -> Device)").
constexpr const char* kCopyKinds[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                      "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
// ENUM_CUDA_MEM_KIND as nsys numbers it, for exports that lack the table.
constexpr const char* kMemoryKinds[] = {"Pageable", "Pinned",        "Device",         "Array",
                                        "Managed",  "Device Static", "Managed Static", "Unknown"};
// CUpti_ActivitySynchronizationType as Kineto names its cuda_sync events.
constexpr const char* kSyncKinds[] = {"Unknown Sync", "Event Sync", "Stream Wait Event",
                                      "Stream Sync", "Context Sync"};

template <size_t N>
const char* Lookup(const char* const (&names)[N], int64_t i) {
  return i >= 0 && i < static_cast<int64_t>(N) ? names[i] : nullptr;
}

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel": nsys names API calls with the version suffix
// of CUPTI's callback ids; Kineto (and so PyTorch's tables) drops it.
std::string_view WithoutVersion(std::string_view name) {
  size_t digits = name.size();
  while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9') --digits;
  if (digits < name.size() && digits >= 2 && name.substr(digits - 2, 2) == "_v")
    return name.substr(0, digits - 2);
  return name;
}

class Importer : sqlite::TableImporter {
 public:
  Importer(Database& db, const InputBuffer& input)
      : TableImporter(db, input, TraceFormat::kNsysSqlite) {}
  Result<Trace> Run();

 private:
  Status CheckSchema();
  Status ReadStrings();
  Status ReadMemoryKinds();
  Status ReadDevices();
  Status ReadExportVersion();
  Status ReadNvtx();
  Status ReadRuntime();
  Status ReadKernels();
  Status ReadCopies(const char* table, ActivityKind kind);
  Status ReadSyncs();
  Status ReadGraphTraces();
  Status NameThreads();

  ThreadId CpuThread(int64_t global_tid) {
    // Rows of one thread come in runs: the last answer is usually the one.
    if (global_tid == last_global_tid_ && last_cpu_thread_.valid()) return last_cpu_thread_;
    ThreadId t = b_.Thread(PidOf(global_tid), TidOf(global_tid));
    cpu_threads_.try_emplace(global_tid & 0xFFFFFFFFFFFF, t);
    last_global_tid_ = global_tid;
    last_cpu_thread_ = t;
    return t;
  }
  // Device activity: the (device, stream) track Kineto writes, stream -1 for none; `args` what it
  // recorded about itself, if anything.
  void AddActivity(Query& q, StringId name, StringId category, ActivityKind kind,
                   const DeviceArgs* args = nullptr);
  // The first columns of every device activity table read.
  static constexpr int kStart = 0, kEnd = 1, kDevice = 2, kStream = 3, kCorrelation = 4,
                       kGlobalPid = 5;

  std::vector<std::string> memory_kinds_;
  std::unordered_map<uint64_t, ThreadId> cpu_threads_;  // (pid, tid) part of a GlobalId
  int64_t last_global_tid_ = 0;
  ThreadId last_cpu_thread_ = ThreadId::None();
  std::unordered_set<int64_t> devices_seen_;
  // Kernels without the process column (no export seen has none) join on the id alone.
  bool correlate_by_process_ = true;
};

Status Importer::CheckSchema() {
  if (!db_.HasTable("StringIds"))
    return Status(ErrorCode::kUnrecognizedFormat,
                  fmt::format("{}: Nsight Systems export without its StringIds table", file_));
  if (db_.HasTable(kKernel) || db_.HasTable(kRuntime) || db_.HasTable(kNvtx)) return Status::Ok();
  return Status(ErrorCode::kUnrecognizedFormat,
                fmt::format("{}: an Nsight Systems export with no CUDA or NVTX data: missing "
                            "tables {}, {} and {} (profile with `nsys profile --trace=cuda,nvtx`)",
                            file_, kKernel, kRuntime, kNvtx));
}

Status Importer::ReadStrings() {
  Query q(db_, "StringIds", {"id", "value"}, "Nsight Systems");
  return strings_.Read(q, b_);
}

Status Importer::ReadMemoryKinds() {
  for (const char* k : kMemoryKinds) memory_kinds_.emplace_back(k);
  if (!db_.HasTable("ENUM_CUDA_MEM_KIND")) return Status::Ok();
  Query q(db_, "ENUM_CUDA_MEM_KIND", {"id", "label"}, "Nsight Systems");
  while (q.Next()) {
    int64_t id = q.Int(0);
    if (id < 0 || id >= 64 || !q.IsInteger(0)) continue;
    if (static_cast<size_t>(id) >= memory_kinds_.size()) memory_kinds_.resize(id + 1);
    memory_kinds_[id] = std::string(sqlite::Excerpt(q.Text(1), 40));
  }
  return q.status();
}

Status Importer::ReadDevices() {
  if (!db_.HasTable("TARGET_INFO_GPU")) return Status::Ok();
  // Few rows: sorted by device id, each name at its id's place in the list.
  // The columns Kineto's deviceProperties also has, under nsys' names (optional: exports differ).
  static constexpr std::pair<const char*, const char*> kProperties[] = {
      {"smCount", "numSms"},
      {"computeMajor", "computeMajor"},
      {"computeMinor", "computeMinor"},
      {"totalMemory", "totalGlobalMem"},
      {"maxThreadsPerBlock", "maxThreadsPerBlock"},
      {"maxRegistersPerBlock", "regsPerBlock"},
      {"maxRegistersPerSm", "regsPerMultiprocessor"},
      {"threadsPerWarp", "warpSize"},
      {"maxShmemPerBlock", "sharedMemPerBlock"},
      {"maxShmemPerBlockOptin", "sharedMemPerBlockOptin"},
      {"maxShmemPerSm", "sharedMemPerMultiprocessor"},
  };
  std::vector<uint8_t> present;
  PROFANA_RETURN_IF_ERROR(Query::CheckColumns(
      db_, "TARGET_INFO_GPU",
      {"id", "name", "smCount?", "computeMajor?", "computeMinor?", "totalMemory?",
       "maxThreadsPerBlock?", "maxRegistersPerBlock?", "maxRegistersPerSm?", "threadsPerWarp?",
       "maxShmemPerBlock?", "maxShmemPerBlockOptin?", "maxShmemPerSm?", "maxWarpsPerSm?"},
      "Nsight Systems", &present));
  std::string sql = "SELECT id, name";
  for (size_t p = 0; p < std::size(kProperties); ++p)
    sql += present[p + 2] ? fmt::format(", {}", kProperties[p].first) : std::string(", NULL");
  sql += present.back() ? ", maxWarpsPerSm" : ", NULL";
  Query q(db_, "TARGET_INFO_GPU", sql + " FROM TARGET_INFO_GPU ORDER BY id");
  std::vector<std::string>& devices = b_.metadata().devices;
  std::vector<DeviceProperties>& properties = b_.metadata().device_properties;
  while (q.Next()) {
    int64_t id = q.Int(0);
    std::string name(q.Text(1));
    DeviceProperties p;
    p.id = id;
    for (size_t k = 0; k < std::size(kProperties); ++k) {
      int column = static_cast<int>(k) + 2;
      if (!q.IsInteger(column) || q.Int(column) < 0) continue;
      ForEachDeviceProperty(p, [&](const char* key, int64_t& v) {
        if (std::string_view(key) == kProperties[k].second) v = q.Int(column);
      });
    }
    // Kineto's maxThreadsPerMultiprocessor: nsys gives it in warps.
    int last = static_cast<int>(std::size(kProperties)) + 2;
    if (q.IsInteger(last) && q.Int(last) > 0 && p.warp_size > 0)
      p.max_threads_per_sm = q.Int(last) * p.warp_size;
    size_t at = id >= 0 && id < 256 ? static_cast<size_t>(id) : devices.size();
    if (at >= devices.size()) devices.resize(at + 1), properties.resize(at + 1);
    devices[at] = std::move(name);
    properties[at] = p;
  }
  return q.status();
}

// META_DATA_EXPORT (name, value): which nsys wrote the export, and its schema version. Read to
// say so (info), never to decide how to read: columns are found by name whatever the version.
Status Importer::ReadExportVersion() {
  if (!db_.HasTable("META_DATA_EXPORT")) return Status::Ok();
  Query q(db_, "META_DATA_EXPORT", {"name", "value"}, "Nsight Systems");
  std::string product, version, schema;
  while (q.Next()) {
    std::string_view name = q.Text(0);
    std::string value(sqlite::Excerpt(q.Text(1), 80));
    if (name == "EXPORT_PRODUCT_NAME") product = std::move(value);
    if (name == "EXPORT_PRODUCT_VERSION") version = std::move(value);
    if (name == "EXPORT_SCHEMA_VERSION") schema = std::move(value);
  }
  std::string& out = b_.metadata().producer;
  out = product.empty() ? "Nsight Systems" : product;
  if (!version.empty()) out += " " + version;
  if (!schema.empty()) out += " (export schema " + schema + ")";
  return q.status();
}

Status Importer::ReadNvtx() {
  if (!db_.HasTable(kNvtx)) return Status::Ok();
  enum { kNStart, kNEnd, kType, kText, kTextId, kTid };
  Query q(db_, kNvtx, {"start", "end", "eventType?", "text?", "textId?", "globalTid?"},
          "Nsight Systems");
  StringId op_category = b_.Intern(KinetoCategory(ActivityKind::kCpuOp)),
           annotation = b_.Intern(KinetoCategory(ActivityKind::kUserAnnotation));
  q.ReadAhead();
  while (q.Next()) {
    if (q.BadIntegers({kNStart}, &b_.diagnostics()) ||
        q.BadIntegers({kNEnd, kType, kTextId, kTid}, &b_.diagnostics(), true))
      continue;
    int64_t type = q.Has(kType) ? q.Int(kType) : kNvtxPushPop;
    if (type == kNvtxMark) {
      ++b_.metadata().instant_events;
      continue;
    }
    // Domain and category registrations and other markers carry no range.
    if ((type != kNvtxPushPop && type != kNvtxStartEnd) || q.IsNull(kNEnd)) continue;
    int64_t start = q.Int(kNStart), end = q.Int(kNEnd);
    if (q.BadTimes(start, end, &b_.diagnostics())) continue;
    std::string_view text = q.IsNull(kText) ? b_.str(String(q.Int(kTextId))) : q.Text(kText);
    PyTorchRange range = ParsePyTorchRange(text);
    TraceBuilder::Event e;
    e.trace_name = b_.Intern(range.name);
    e.kind = range.is_op ? ActivityKind::kCpuOp : ActivityKind::kUserAnnotation;
    e.category = range.is_op ? op_category : annotation;
    e.thread = CpuThread(q.IsNull(kTid) ? 0 : q.Int(kTid));
    e.start_ns = start;
    e.end_ns = std::max(start, end);
    e.sequence_nr = range.sequence_nr;
    if (!range.sizes.empty()) e.input_shapes = b_.Intern(range.sizes);
    b_.AddEvent(e);
    ++b_.metadata().raw_events;
  }
  return q.status();
}

Status Importer::ReadRuntime() {
  if (!db_.HasTable(kRuntime)) return Status::Ok();
  enum { kRStart, kREnd, kTid, kRCorrelation, kName };
  Query q(db_, kRuntime, {"start", "end", "globalTid", "correlationId", "nameId"},
          "Nsight Systems");
  struct Name {
    StringId name;
    bool driver;
  };
  std::unordered_map<int64_t, Name> names;  // nameId -> cleaned name
  StringId runtime = b_.Intern(KinetoCategory(ActivityKind::kRuntime)),
           driver = b_.Intern(KinetoCategory(ActivityKind::kDriver));
  q.ReadAhead();
  while (q.Next()) {
    if (q.BadIntegers({kRStart, kREnd, kName}, &b_.diagnostics()) ||
        q.BadIntegers({kTid, kRCorrelation}, &b_.diagnostics(), true) ||
        q.BadTimes(q.Int(kRStart), q.Int(kREnd), &b_.diagnostics()))
      continue;
    auto [it, inserted] = names.try_emplace(q.Int(kName), Name{});
    if (inserted) {
      std::string_view full = b_.str(String(q.Int(kName)));
      // The table holds driver calls too (cuLaunchKernelEx, cuKernelGetAttribute).
      it->second.driver = full.substr(0, 2) == "cu" && full.substr(0, 4) != "cuda";
      it->second.name = b_.Intern(WithoutVersion(full));
    }
    int64_t tid = q.IsNull(kTid) ? 0 : q.Int(kTid);
    TraceBuilder::Event e;
    e.trace_name = it->second.name;
    e.kind = it->second.driver ? ActivityKind::kDriver : ActivityKind::kRuntime;
    e.category = it->second.driver ? driver : runtime;
    e.thread = CpuThread(tid);
    e.start_ns = q.Int(kRStart);
    e.end_ns = std::max(q.Int(kREnd), e.start_ns);
    if (!q.IsNull(kRCorrelation))
      e.correlation = CorrelationKey(correlate_by_process_ ? PidOf(tid) : 0, q.Int(kRCorrelation));
    b_.AddEvent(e);
    ++b_.metadata().raw_events;
  }
  return q.status();
}

void Importer::AddActivity(Query& q, StringId name, StringId category, ActivityKind kind,
                           const DeviceArgs* args) {
  int64_t device = q.Int(kDevice), stream = q.Int(kStream);
  if (stream == 0xFFFFFFFF) stream = -1;  // CUPTI's "no stream", as Kineto writes it
  TraceBuilder::Event e;
  e.trace_name = name;
  e.category = category;
  e.kind = kind;
  e.thread = b_.Thread(device, stream);
  e.start_ns = q.Int(kStart);
  e.end_ns = std::max(q.Int(kEnd), e.start_ns);
  if (!q.IsNull(kCorrelation))
    e.correlation =
        CorrelationKey(correlate_by_process_ ? PidOf(q.Int(kGlobalPid)) : 0, q.Int(kCorrelation));
  e.device = static_cast<int32_t>(std::clamp<int64_t>(device, -1, INT32_MAX));
  if (args) e.has_device_args = true, e.device_args = *args;
  devices_seen_.insert(device);
  b_.AddEvent(e);
  ++b_.metadata().raw_events;
}

Status Importer::ReadKernels() {
  if (!db_.HasTable(kKernel)) return Status::Ok();
  enum { kDemangled = 6, kShort, kLaunch };
  Query q(db_, kKernel,
          {"start", "end", "deviceId", "streamId", "correlationId", "globalPid?", "demangledName",
           "shortName?", PROFANA_CUPTI_LAUNCH_COLUMNS},
          "Nsight Systems");
  correlate_by_process_ = q.Has(kGlobalPid);
  StringId category = b_.Intern(KinetoCategory(ActivityKind::kKernel));
  q.ReadAhead();
  while (q.Next()) {
    if (q.BadIntegers({kStart, kEnd, kDevice, kStream, kDemangled}, &b_.diagnostics()) ||
        q.BadIntegers({kCorrelation, kGlobalPid, kShort}, &b_.diagnostics(), true) ||
        q.BadTimes(q.Int(kStart), q.Int(kEnd), &b_.diagnostics()))
      continue;
    StringId name = String(q.Int(kDemangled));
    if (name.value == 0 && q.Has(kShort)) name = String(q.Int(kShort));
    DeviceArgs args = sqlite::CuptiLaunch(q, kLaunch);
    AddActivity(q, name, category, ActivityKind::kKernel, &args);
  }
  return q.status();
}

// Memcpy and memset rows: "Memcpy HtoD (Pageable -> Device)" and "Memset (Device)", as Kineto
// names them.
Status Importer::ReadCopies(const char* table, ActivityKind kind) {
  if (!db_.HasTable(table)) return Status::Ok();
  bool memcpy = kind == ActivityKind::kMemcpy;
  // The byte count follows the kinds: 9 for a memcpy, 7 for a memset.
  enum { kKindA = 6, kKindB, kKindC };
  const int bytes_column = memcpy ? 9 : 7;
  Query q = memcpy ? Query(db_, table,
                           {"start", "end", "deviceId", "streamId", "correlationId", "globalPid?",
                            "copyKind?", "srcKind?", "dstKind?", "bytes?"},
                           "Nsight Systems")
                   : Query(db_, table,
                           {"start", "end", "deviceId", "streamId", "correlationId", "globalPid?",
                            "memKind?", "bytes?"},
                           "Nsight Systems");
  StringId category =
      b_.Intern(KinetoCategory(memcpy ? ActivityKind::kMemcpy : ActivityKind::kMemset));
  auto memory = [&](int k) -> std::string {
    if (q.IsNull(k)) return "Unknown";
    int64_t i = q.Int(k);
    return i >= 0 && static_cast<size_t>(i) < memory_kinds_.size() && !memory_kinds_[i].empty()
               ? memory_kinds_[i]
               : fmt::format("#{}", i);
  };
  std::unordered_map<uint64_t, StringId> names;  // (copy kind, src, dst) -> name
  q.ReadAhead();
  while (q.Next()) {
    if (q.BadIntegers({kStart, kEnd, kDevice, kStream}, &b_.diagnostics()) ||
        q.BadIntegers({kCorrelation, kGlobalPid, kKindA}, &b_.diagnostics(), true) ||
        (memcpy && q.BadIntegers({kKindB, kKindC}, &b_.diagnostics(), true)) ||
        q.BadTimes(q.Int(kStart), q.Int(kEnd), &b_.diagnostics()))
      continue;
    uint64_t key = static_cast<uint64_t>(q.Int(kKindA) & 0xFFFF) << 32;
    if (memcpy)
      key |= (static_cast<uint64_t>(q.Int(kKindB) & 0xFFFF) << 16) |
             static_cast<uint64_t>(q.Int(kKindC) & 0xFFFF);
    auto [it, inserted] = names.try_emplace(key, StringId(0));
    if (inserted) {
      if (memcpy) {
        const char* copy = q.IsNull(kKindA) ? "Unknown" : Lookup(kCopyKinds, q.Int(kKindA));
        it->second = b_.Intern(fmt::format("Memcpy {} ({} -> {})",
                                           copy ? copy : fmt::format("#{}", q.Int(kKindA)),
                                           memory(kKindB), memory(kKindC)));
      } else {
        it->second = b_.Intern(fmt::format("Memset ({})", memory(kKindA)));
      }
    }
    // The kinds as the name says them (one rule for every importer), the bytes as recorded.
    DeviceArgs args;
    args.SetCopyKindsFromName(b_.str(it->second));
    if (q.Has(bytes_column) && q.IsInteger(bytes_column) && q.Int(bytes_column) >= 0)
      args.bytes = q.Int(bytes_column);
    AddActivity(q, it->second, category, kind, &args);
  }
  return q.status();
}

// Whole-graph executions (graph trace mode): device work on the launch's stream, named by the
// graph, and linked to its cudaGraphLaunch by correlation id like a kernel. The kernels inside
// are not recorded in this mode, so a graph execution stands for them (`kernels` lists it).
Status Importer::ReadGraphTraces() {
  if (!db_.HasTable(kGraphTrace)) return Status::Ok();
  enum { kGraph = 6 };
  Query q(db_, kGraphTrace,
          {"start", "end", "deviceId", "streamId", "correlationId", "globalPid?", "graphId?"},
          "Nsight Systems");
  StringId category = b_.Intern(KinetoCategory(ActivityKind::kKernel));
  std::unordered_map<int64_t, StringId> names;  // graph id -> name
  while (q.Next()) {
    if (q.BadIntegers({kStart, kEnd, kDevice, kStream}, &b_.diagnostics()) ||
        q.BadIntegers({kCorrelation, kGlobalPid, kGraph}, &b_.diagnostics(), true) ||
        q.BadTimes(q.Int(kStart), q.Int(kEnd), &b_.diagnostics()))
      continue;
    int64_t graph = q.IsNull(kGraph) ? -1 : q.Int(kGraph);
    auto [it, inserted] = names.try_emplace(graph, StringId(0));
    if (inserted)
      it->second =
          b_.Intern(graph < 0 ? std::string("CUDA graph") : fmt::format("CUDA graph {}", graph));
    AddActivity(q, it->second, category, ActivityKind::kKernel);
  }
  return q.status();
}

Status Importer::ReadSyncs() {
  if (!db_.HasTable(kSync)) return Status::Ok();
  enum { kType = 6 };
  Query q(db_, kSync,
          {"start", "end", "deviceId", "streamId", "correlationId", "globalPid?", "syncType?"},
          "Nsight Systems");
  StringId category = b_.Intern(KinetoCategory(ActivityKind::kDeviceOther));
  while (q.Next()) {
    if (q.BadIntegers({kStart, kEnd, kDevice, kStream}, &b_.diagnostics()) ||
        q.BadIntegers({kCorrelation, kGlobalPid, kType}, &b_.diagnostics(), true) ||
        q.BadTimes(q.Int(kStart), q.Int(kEnd), &b_.diagnostics()))
      continue;
    const char* name = Lookup(kSyncKinds, q.IsNull(kType) ? 0 : q.Int(kType));
    AddActivity(q, b_.Intern(name ? name : kSyncKinds[0]), category, ActivityKind::kDeviceOther);
  }
  return q.status();
}

// Thread names for the threads that have events, and process names for their processes (unless
// the pid is also a device number: device tracks use the device as their pid, as in Kineto).
Status Importer::NameThreads() {
  if (db_.HasTable("ThreadNames")) {
    Query q(db_, "ThreadNames", {"nameId", "globalTid"}, "Nsight Systems");
    while (q.Next()) {
      auto it = cpu_threads_.find(static_cast<uint64_t>(q.Int(1)) & 0xFFFFFFFFFFFF);
      if (it != cpu_threads_.end() && q.IsInteger(0))
        b_.SetThreadName(it->second, String(q.Int(0)));
    }
    PROFANA_RETURN_IF_ERROR(q.status());
  }
  if (db_.HasTable("PROCESSES")) {
    std::unordered_set<int64_t> pids;
    for (const auto& [global, thread] : cpu_threads_) pids.insert(PidOf(global));
    Query q(db_, "PROCESSES", {"pid", "name"}, "Nsight Systems");
    while (q.Next()) {
      int64_t pid = q.Int(0);
      if (!q.IsInteger(0) || !pids.count(pid) || devices_seen_.count(pid)) continue;
      b_.SetProcessName(pid, StringId(0), b_.Intern(q.Text(1)));
    }
    PROFANA_RETURN_IF_ERROR(q.status());
  }
  return Status::Ok();
}

Result<Trace> Importer::Run() {
  PROFANA_RETURN_IF_ERROR(CheckSchema());
  PROFANA_RETURN_IF_ERROR(ReadStrings());
  PROFANA_RETURN_IF_ERROR(ReadMemoryKinds());
  PROFANA_RETURN_IF_ERROR(ReadDevices());
  PROFANA_RETURN_IF_ERROR(ReadExportVersion());
  int64_t rows = 0;
  for (const char* table : {kKernel, kRuntime, kNvtx, kMemcpy, kMemset, kSync, kGraphTrace})
    rows += db_.EstimateRows(table);
  b_.ReserveRows({static_cast<size_t>(rows)});
  // Kernels first: whether their rows name the process decides how correlation ids are keyed.
  PROFANA_RETURN_IF_ERROR(ReadKernels());
  PROFANA_RETURN_IF_ERROR(ReadNvtx());
  PROFANA_RETURN_IF_ERROR(ReadRuntime());
  PROFANA_RETURN_IF_ERROR(ReadCopies(kMemcpy, ActivityKind::kMemcpy));
  PROFANA_RETURN_IF_ERROR(ReadCopies(kMemset, ActivityKind::kMemset));
  PROFANA_RETURN_IF_ERROR(ReadSyncs());
  PROFANA_RETURN_IF_ERROR(ReadGraphTraces());
  PROFANA_RETURN_IF_ERROR(NameThreads());
  db_.NoteProblems(&b_.diagnostics());
  return std::move(b_).Finish();
}

}  // namespace

bool SniffNsys(std::string_view bytes) {
  if (!sqlite::HasSqliteMagic(bytes)) return false;
  std::vector<std::string> tables = sqlite::TableNames(bytes);
  bool strings = false, nsys = false;
  for (const std::string& t : tables) {
    strings |= t == "StringIds";
    nsys |= t == kNvtx || t.rfind("CUPTI_ACTIVITY_KIND_", 0) == 0 ||
            t.rfind("TARGET_INFO_", 0) == 0 || t == "META_DATA_EXPORT";
  }
  return strings && nsys;
}

Result<Trace> ImportNsys(const InputBuffer& input) {
  PROFANA_ASSIGN_OR_RETURN(std::unique_ptr<Database> db, Database::Open(input));
  return Importer(*db, input).Run();
}

}  // namespace profana::nsys
