#include "profana/importers/nvprof/nvprof_importer.h"

#include <cxxabi.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <unordered_map>

#include "fmt/format.h"
#include "profana/importers/nvprof/cupti_names.h"
#include "profana/model/trace_builder.h"

namespace profana::nvprof {
namespace {

constexpr char kSqliteMagic[] = "SQLite format 3";  // followed by a NUL: 16 bytes

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct StmtCloser {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Db = std::unique_ptr<sqlite3, DbCloser>;
using Stmt = std::unique_ptr<sqlite3_stmt, StmtCloser>;

// Runs one query row by row; errors name the table and the row they stopped at.
class Query {
 public:
  Query(sqlite3* db, const std::string& file, std::string table, const std::string& sql)
      : db_(db), file_(file), table_(std::move(table)) {
    sqlite3_stmt* raw = nullptr;
    int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &raw, nullptr);
    if (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB)
      status_ = Error("cannot read");
    else if (rc != SQLITE_OK)
      status_ = Status(ErrorCode::kMalformed,
                       fmt::format("{}: table {}: cannot read it ({}): not the table nvprof writes",
                                   file_, table_, sqlite3_errmsg(db_)));
    stmt_.reset(raw);
  }
  // True while there is a row; check status() after the loop.
  bool Next() {
    if (!status_.ok() || !stmt_) return false;
    int rc = sqlite3_step(stmt_.get());
    if (rc == SQLITE_ROW) {
      ++row_;
      return true;
    }
    if (rc != SQLITE_DONE) status_ = Error("database error");  // a damaged page, usually
    return false;
  }
  int64_t Int(int col) const { return sqlite3_column_int64(stmt_.get(), col); }
  std::string_view Text(int col) const {
    const unsigned char* p = sqlite3_column_text(stmt_.get(), col);
    return p ? std::string_view(reinterpret_cast<const char*>(p),
                                sqlite3_column_bytes(stmt_.get(), col))
             : "";
  }
  std::string_view Blob(int col) const {
    const void* p = sqlite3_column_blob(stmt_.get(), col);
    return p ? std::string_view(static_cast<const char*>(p), sqlite3_column_bytes(stmt_.get(), col))
             : "";
  }
  // The name of the first column in [first, last] whose value is not an integer (nvprof writes
  // integers there, NOT NULL); null when all are.
  const char* NonInteger(int first, int last) const {
    for (int c = first; c <= last; ++c)
      if (sqlite3_column_type(stmt_.get(), c) != SQLITE_INTEGER)
        return sqlite3_column_name(stmt_.get(), c);
    return nullptr;
  }
  const char* TypeName(const char* column) const {
    for (int c = 0; c < sqlite3_column_count(stmt_.get()); ++c)
      if (std::strcmp(sqlite3_column_name(stmt_.get(), c), column) == 0) {
        switch (sqlite3_column_type(stmt_.get(), c)) {
          case SQLITE_FLOAT:
            return "a REAL";
          case SQLITE_TEXT:
            return "TEXT";
          case SQLITE_BLOB:
            return "a BLOB";
          case SQLITE_NULL:
            return "NULL";
          default:
            return "an INTEGER";
        }
      }
    return "?";
  }
  const std::string& table() const { return table_; }
  int64_t row() const { return row_; }
  const Status& status() const { return status_; }

 private:
  Status Error(const char* what) const {
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: table {}{}: {}: {} (the file is damaged; `sqlite3 FILE 'PRAGMA "
                              "integrity_check'` lists what is lost)",
                              file_, table_, stmt_ ? fmt::format(", row {}", row_ + 1) : "", what,
                              sqlite3_errmsg(db_)));
  }
  sqlite3* db_;
  const std::string& file_;
  std::string table_;
  Stmt stmt_;
  Status status_;
  int64_t row_ = 0;
};

class Importer {
 public:
  Importer(sqlite3* db, const InputBuffer& input) : db_(db), file_(input.name) {
    b_.metadata().format = "nvprof-sqlite";
    b_.metadata().input_bytes = input.size;
  }
  Result<Trace> Run();

 private:
  Status CheckSchema();
  Status ReadStrings();
  Status ReadDevices();
  Status ReadMarkers();
  Status ReadApiCalls(const char* table, ActivityKind kind);
  Status ReadKernels();
  int64_t AddActivity(const Query& q, StringId name, StringId category, ActivityKind kind);
  Status ReadMemcpys();
  Status ReadMemsets();
  void CheckLaunches();

  StringId String(int64_t id) const {
    if (id >= 0 && static_cast<size_t>(id) < strings_.size()) return strings_[id];
    auto it = sparse_strings_.find(id);
    return it == sparse_strings_.end() ? StringId(0) : it->second;
  }
  // A row whose integer columns [first, last] hold something else is counted and skipped: its
  // values would read as 0 and land somewhere plausible but wrong.
  bool BadRow(const Query& q, int first, int last) {
    const char* column = q.NonInteger(first, last);
    if (!column) return false;
    b_.diagnostics().Add(
        DiagnosticKind::kWrongFieldType, UINT64_MAX, -1,
        fmt::format("table {}, row {}: column {} holds {}, expected an integer; row skipped",
                    q.table(), q.row(), column, q.TypeName(column)));
    return true;
  }
  // Times past +-2^62 ns would overflow the passes' arithmetic: counted and skipped.
  bool BadTimes(const Query& q, int64_t start, int64_t end) {
    if (TimeInRange(start) && TimeInRange(end)) return false;
    b_.diagnostics().Add(
        DiagnosticKind::kBadNumber, UINT64_MAX, -1,
        fmt::format("table {}, row {}: time {} ns is out of range (times must be within "
                    "+-146 years of 0); row skipped",
                    q.table(), q.row(), TimeInRange(start) ? end : start));
    return true;
  }
  StringId KernelName(int64_t id);
  // nvprof stores 32-bit thread ids, signed in API tables and unsigned in marker object ids.
  ThreadId CpuThread(int64_t pid, int64_t tid) {
    return b_.Thread(static_cast<uint32_t>(pid), static_cast<uint32_t>(tid));
  }
  ThreadId Stream(int64_t device, int64_t stream) { return b_.Thread(device, stream); }

  sqlite3* db_;
  const std::string& file_;
  TraceBuilder b_;
  std::set<std::string> tables_;
  std::vector<StringId> strings_;                         // dense ids, as nvprof writes them
  std::unordered_map<int64_t, StringId> sparse_strings_;  // ids far past the row count
  std::vector<StringId> demangled_;  // string id -> demangled kernel name (0 = not yet)
  std::unordered_map<int64_t, int64_t> launch_cbid_;  // correlation id -> runtime cbid
  std::vector<std::pair<int64_t, int64_t>> activity_correlations_;  // kernel correlation id, row
  uint64_t markers_ = 0;
};

Status Importer::CheckSchema() {
  Query q(db_, file_, "sqlite_master", "SELECT name FROM sqlite_master WHERE type = 'table'");
  while (q.Next()) tables_.insert(std::string(q.Text(0)));
  PROFANA_RETURN_IF_ERROR(q.status());
  std::vector<std::string> missing;
  for (const char* t : {"StringTable", "CUPTI_ACTIVITY_KIND_RUNTIME",
                        "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL", "CUPTI_ACTIVITY_KIND_MARKER"})
    if (!tables_.count(t)) missing.push_back(t);
  if (missing.empty()) return Status::Ok();
  std::string list;
  for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
  if (tables_.count("StringIds") || tables_.count("TARGET_INFO_GPU"))
    return Status(
        ErrorCode::kUnrecognizedFormat,
        fmt::format("{}: an Nsight Systems SQLite export, not an nvprof database (missing {}); "
                    "profana reads nvprof databases (nvprof -o FILE)",
                    file_, list));
  return Status(ErrorCode::kUnrecognizedFormat,
                fmt::format("{}: SQLite database, but not an nvprof profile: missing table{} {}",
                            file_, missing.size() > 1 ? "s" : "", list));
}

Status Importer::ReadStrings() {
  Query q(db_, file_, "StringTable", "SELECT _id_, value FROM StringTable");
  while (q.Next()) {
    int64_t id = q.Int(0);
    // A vector indexed by id, unless the id is far beyond the rows read: a damaged or hostile
    // id near 2^63 must not size a vector.
    if (id >= 0 && id < std::max<int64_t>(int64_t{1} << 16, 4 * q.row())) {
      if (static_cast<size_t>(id) >= strings_.size()) strings_.resize(id + 1);
      strings_[id] = b_.Intern(q.Text(1));
    } else {
      sparse_strings_[id] = b_.Intern(q.Text(1));
    }
  }
  return q.status();
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
  if (!tables_.count("CUPTI_ACTIVITY_KIND_DEVICE")) return Status::Ok();
  Query q(db_, file_, "CUPTI_ACTIVITY_KIND_DEVICE",
          "SELECT name FROM CUPTI_ACTIVITY_KIND_DEVICE ORDER BY id");
  while (q.Next()) b_.metadata().devices.emplace_back(b_.str(String(q.Int(0))));
  return q.status();
}

Status Importer::ReadMarkers() {
  // A range is a start row (flags 2, a name) and an end row (flags 4, name 0) sharing `id`; the
  // start row's objectId holds the process and thread (CUpti_ActivityObjectKindId).
  Query q(db_, file_, "CUPTI_ACTIVITY_KIND_MARKER",
          "SELECT flags, timestamp, id, objectKind, objectId, name FROM CUPTI_ACTIVITY_KIND_MARKER "
          "ORDER BY _id_");
  struct Open {
    int64_t ts;
    StringId name;
    ThreadId thread;
    int64_t row;
  };
  std::unordered_map<int64_t, Open> open;
  while (q.Next()) {
    if (BadRow(q, 0, 3) || BadRow(q, 5, 5) || BadTimes(q, q.Int(1), q.Int(1))) continue;
    int64_t flags = q.Int(0), ts = q.Int(1), id = q.Int(2), name = q.Int(5);
    if ((flags & 1) != 0) {  // an instantaneous marker: not a range
      ++b_.metadata().instant_events;
      continue;
    }
    if (name != 0 && (flags & 4) == 0) {
      std::string_view object = q.Blob(4);
      uint32_t pid = 0, tid = 0;
      if (object.size() >= 4) std::memcpy(&pid, object.data(), 4);
      if (object.size() >= 8 && q.Int(3) == 2) std::memcpy(&tid, object.data() + 4, 4);
      open[id] = {ts, String(name), CpuThread(pid, tid), q.row()};
      continue;
    }
    auto it = open.find(id);
    if (it == open.end()) {
      b_.diagnostics().Add(
          DiagnosticKind::kUnmatchedEnd, UINT64_MAX, -1,
          fmt::format("table CUPTI_ACTIVITY_KIND_MARKER, row {}: end of marker {} without a start",
                      q.row(), id));
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
  for (const auto& [id, m] : open)
    b_.diagnostics().Add(
        DiagnosticKind::kUnmatchedBegin, UINT64_MAX, -1,
        fmt::format("table CUPTI_ACTIVITY_KIND_MARKER, row {}: marker \"{}\" never ends; dropped",
                    m.row, b_.str(m.name)));
  return q.status();
}

Status Importer::ReadApiCalls(const char* table, ActivityKind kind) {
  if (!tables_.count(table)) return Status::Ok();
  Query q(db_, file_, table,
          fmt::format(
              "SELECT cbid, start, end, processId, threadId, correlationId FROM {} ORDER BY _id_",
              table));
  std::unordered_map<int64_t, StringId> names;
  while (q.Next()) {
    if (BadRow(q, 0, 5) || BadTimes(q, q.Int(1), q.Int(2))) continue;
    int64_t cbid = q.Int(0);
    auto [it, inserted] = names.try_emplace(cbid, StringId(0));
    if (inserted)
      it->second = b_.Intern(kind == ActivityKind::kRuntime ? RuntimeApiName(cbid)
                                                            : "cuDriver#" + std::to_string(cbid));
    TraceBuilder::Event e;
    e.trace_name = it->second;
    e.kind = kind;
    e.thread = CpuThread(q.Int(3), q.Int(4));
    e.start_ns = q.Int(1);
    e.end_ns = std::max(q.Int(2), e.start_ns);
    e.correlation = q.Int(5);
    b_.AddEvent(e);
    ++b_.metadata().raw_events;
    if (kind == ActivityKind::kRuntime) launch_cbid_[e.correlation] = cbid;
  }
  return q.status();
}

// Device activity rows all start with (start, end, deviceId, streamId, correlationId): one event
// on the (device, stream) track. Returns the correlation id.
int64_t Importer::AddActivity(const Query& q, StringId name, StringId category, ActivityKind kind) {
  TraceBuilder::Event e;
  e.trace_name = name;
  e.category = category;
  e.kind = kind;
  e.thread = Stream(q.Int(2), q.Int(3));
  e.start_ns = q.Int(0);
  e.end_ns = std::max(q.Int(1), e.start_ns);
  e.correlation = q.Int(4);
  e.device = static_cast<int32_t>(q.Int(2));
  b_.AddEvent(e);
  ++b_.metadata().raw_events;
  return e.correlation;
}

Status Importer::ReadKernels() {
  Query q(db_, file_, "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL",
          "SELECT start, end, deviceId, streamId, correlationId, name FROM "
          "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL "
          "ORDER BY _id_");
  StringId category = b_.Intern("kernel");
  while (q.Next()) {
    if (BadRow(q, 0, 5) || BadTimes(q, q.Int(0), q.Int(1))) continue;
    int64_t correlation = AddActivity(q, KernelName(q.Int(5)), category, ActivityKind::kKernel);
    activity_correlations_.emplace_back(correlation, q.row());
  }
  return q.status();
}

Status Importer::ReadMemcpys() {
  if (!tables_.count("CUPTI_ACTIVITY_KIND_MEMCPY")) return Status::Ok();
  Query q(db_, file_, "CUPTI_ACTIVITY_KIND_MEMCPY",
          "SELECT start, end, deviceId, streamId, correlationId, copyKind FROM "
          "CUPTI_ACTIVITY_KIND_MEMCPY ORDER BY _id_");
  StringId category = b_.Intern("gpu_memcpy");
  while (q.Next()) {
    if (!BadRow(q, 0, 5) && !BadTimes(q, q.Int(0), q.Int(1)))
      AddActivity(q, b_.Intern(MemcpyName(q.Int(5))), category, ActivityKind::kMemcpy);
  }
  return q.status();
}

Status Importer::ReadMemsets() {
  if (!tables_.count("CUPTI_ACTIVITY_KIND_MEMSET")) return Status::Ok();
  Query q(db_, file_, "CUPTI_ACTIVITY_KIND_MEMSET",
          "SELECT start, end, deviceId, streamId, correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET "
          "ORDER BY _id_");
  StringId name = b_.Intern("Memset"), category = b_.Intern("gpu_memset");
  while (q.Next()) {
    if (!BadRow(q, 0, 4) && !BadTimes(q, q.Int(0), q.Int(1)))
      AddActivity(q, name, category, ActivityKind::kMemset);
  }
  return q.status();
}

// The reference asserts that a kernel's runtime call is a launch (cbid 211 or 13); profana counts
// kernels whose call is missing or is not a known launch instead.
void Importer::CheckLaunches() {
  for (const auto& [correlation, row] : activity_correlations_) {
    auto it = launch_cbid_.find(correlation);
    if (it == launch_cbid_.end()) {
      b_.diagnostics().Add(
          DiagnosticKind::kKernelWithoutLaunch, UINT64_MAX, -1,
          fmt::format("table CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, row {}: correlation id {} "
                      "matches no runtime call",
                      row, correlation));
    } else if (!IsLaunchCallback(it->second)) {
      b_.diagnostics().Add(
          DiagnosticKind::kUnknownLaunchCallback, UINT64_MAX, -1,
          fmt::format(
              "table CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, row {}: launched by {} (cbid {})", row,
              RuntimeApiName(it->second), it->second));
    }
  }
}

Result<Trace> Importer::Run() {
  PROFANA_RETURN_IF_ERROR(CheckSchema());
  if (tables_.count("Version")) {
    Query q(db_, file_, "Version", "SELECT version FROM Version");
    if (q.Next()) b_.metadata().schema_version = q.Int(0);
    PROFANA_RETURN_IF_ERROR(q.status());
  }
  PROFANA_RETURN_IF_ERROR(ReadStrings());
  PROFANA_RETURN_IF_ERROR(ReadDevices());
  PROFANA_RETURN_IF_ERROR(ReadMarkers());
  PROFANA_RETURN_IF_ERROR(ReadApiCalls("CUPTI_ACTIVITY_KIND_RUNTIME", ActivityKind::kRuntime));
  PROFANA_RETURN_IF_ERROR(ReadApiCalls("CUPTI_ACTIVITY_KIND_DRIVER", ActivityKind::kDriver));
  PROFANA_RETURN_IF_ERROR(ReadKernels());
  PROFANA_RETURN_IF_ERROR(ReadMemcpys());
  PROFANA_RETURN_IF_ERROR(ReadMemsets());
  CheckLaunches();
  // PyTorch reads nvprof profiles legacy-style: the markers are the events, and each carries the
  // kernels launched inside it (no runtime or kernel rows of their own). A profile without markers
  // (not made with emit_nvtx) would then show nothing: its calls and kernels are listed instead.
  b_.metadata().legacy_kernels = markers_ > 0;
  return std::move(b_).Finish();
}

}  // namespace

bool SniffSqlite(std::string_view bytes) {
  return bytes.size() >= 16 && std::memcmp(bytes.data(), kSqliteMagic, 16) == 0;
}

Result<Trace> ImportNvprof(const InputBuffer& input) {
  sqlite3* raw = nullptr;
  if (sqlite3_open_v2(":memory:", &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    sqlite3_close(raw);
    return Status(ErrorCode::kInternal, input.name + ": cannot start SQLite");
  }
  Db db(raw);
  // The bytes are already in memory: SQLite reads them there, read-only, with no file of its own.
  int rc = sqlite3_deserialize(db.get(), "main", reinterpret_cast<unsigned char*>(input.data.get()),
                               static_cast<sqlite3_int64>(input.size),
                               static_cast<sqlite3_int64>(input.size), SQLITE_DESERIALIZE_READONLY);
  if (rc != SQLITE_OK)
    return Status(ErrorCode::kMalformed,
                  fmt::format("{}: byte 0: not a readable SQLite database: {}", input.name,
                              sqlite3_errmsg(db.get())));
  return Importer(db.get(), input).Run();
}

}  // namespace profana::nvprof
