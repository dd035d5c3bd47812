#include "profana/importers/rocm/rpd_importer.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "fmt/format.h"
#include "profana/base/flat_hash_map.h"
#include "profana/importers/common/pytorch_range.h"
#include "profana/importers/rocm/hip_names.h"
#include "profana/importers/sqlite/database.h"
#include "profana/importers/sqlite/query.h"
#include "profana/importers/sqlite/string_ids.h"
#include "profana/importers/sqlite/table_importer.h"
#include "profana/model/trace_builder.h"

namespace profana::rocm {
namespace {

using sqlite::Database;
using sqlite::Query;

constexpr std::string_view kRpdWhat = "rocmProfileData";

class RpdImporter : sqlite::TableImporter {
 public:
  RpdImporter(Database& db, const InputBuffer& input)
      : TableImporter(db, input, TraceFormat::kRocmRpd) {}
  Result<Trace> Run();

 private:
  Status CheckSchema();
  Status ReadStrings();
  Status ReadMetadata();
  Status ReadApiCalls();
  Status ReadApiOps();
  Status ReadLaunchArgs();
  Status ReadOps();

  StringId Category(ActivityKind kind) { return b_.Intern(CategoryOf(kind)); }

  FlatHashMap<int64_t, int64_t> api_of_op_;  // rocpd_api_ops: op id -> the call that enqueued it
  // rocpd_kernelapi and rocpd_copyapi: a launch's configuration or a copy's size, by call id.
  std::unordered_map<int64_t, DeviceArgs> args_of_api_;
};

Status RpdImporter::CheckSchema() {
  std::vector<std::string> missing;
  for (const char* t : {"rocpd_string", "rocpd_api", "rocpd_op"})
    if (!db_.HasTable(t)) missing.push_back(t);
  if (missing.empty()) return Status::Ok();
  std::string list;
  for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
  return Status(ErrorCode::kUnrecognizedFormat,
                fmt::format("{}: rocmProfileData database without its table{} {}", file_,
                            missing.size() > 1 ? "s" : "", list));
}

Status RpdImporter::ReadStrings() {
  Query q(db_, "rocpd_string", {"id", "string"}, kRpdWhat);
  return strings_.Read(q, b_);
}

Status RpdImporter::ReadMetadata() {
  if (!db_.HasTable("rocpd_metadata")) return Status::Ok();
  Query q(db_, "rocpd_metadata", {"tag", "value"}, kRpdWhat);
  while (q.Next()) {
    if (q.Text(0) != "schema_version") continue;
    std::string_view v = q.Text(1);
    int64_t version = 0;
    bool digits = !v.empty() && v.size() < 10;
    for (char c : v) digits = digits && c >= '0' && c <= '9', version = version * 10 + (c - '0');
    if (digits) b_.metadata().schema_version = version;
  }
  return q.status();
}

Status RpdImporter::ReadApiCalls() {
  PROFANA_RETURN_IF_ERROR(Query::CheckColumns(
      db_, "rocpd_api", {"id", "pid", "tid", "start", "end", "apiName_id", "args_id"}, kRpdWhat));
  // RPD's autograd tool (Autograd::Generated) moves each PyTorch marker's sequence number and
  // shapes into ext_autogradapi, one row per marker keyed by its api id: joined on that key.
  std::vector<uint8_t> autograd;
  bool with_autograd = db_.HasTable("ext_autogradapi");
  if (with_autograd)
    PROFANA_RETURN_IF_ERROR(Query::CheckColumns(
        db_, "ext_autogradapi", {"api_ptr_id", "seq?", "sizes?"}, kRpdWhat, &autograd));
  enum { kId, kPid, kTid, kStart, kEnd, kName, kArgs, kAutograd, kSeq, kSizes };
  std::string sql = "SELECT a.id, a.pid, a.tid, a.start, a.end, a.apiName_id, a.args_id";
  if (with_autograd) {
    sql += std::string(", g.api_ptr_id, ") + (autograd[1] ? "g.seq" : "NULL") + ", " +
           (autograd[2] ? "g.sizes" : "NULL") +
           " FROM rocpd_api a LEFT JOIN ext_autogradapi g ON g.api_ptr_id = a.id";
  } else {
    sql += ", NULL, NULL, NULL FROM rocpd_api a";
  }
  Query q(db_, "rocpd_api", sql);
  std::unordered_map<int64_t, ActivityKind> kinds;  // apiName_id -> kind
  StringId marker_name;
  b_.strings().Find("UserMarker", &marker_name);
  q.ReadAhead();
  while (q.Next()) {
    if (q.BadIntegers({kId, kPid, kTid, kStart, kEnd, kName, kArgs}, &b_.diagnostics()) ||
        q.BadTimes(q.Int(kStart), q.Int(kEnd), &b_.diagnostics()))
      continue;
    StringId api = String(q.Int(kName));
    TraceBuilder::Event e;
    e.thread = b_.Thread(q.Int(kPid), q.Int(kTid));
    e.start_ns = q.Int(kStart);
    e.end_ns = std::max(q.Int(kEnd), e.start_ns);
    if (api == marker_name && api.value != 0) {
      // A roctx range: its text is in args.
      PyTorchRange range = ParsePyTorchRange(b_.str(String(q.Int(kArgs))));
      bool autograd_row = !q.IsNull(kAutograd);
      e.kind = range.is_op || autograd_row ? ActivityKind::kCpuOp : ActivityKind::kUserAnnotation;
      e.trace_name = b_.Intern(range.name);
      e.sequence_nr = range.sequence_nr;
      if (autograd_row && q.IsInteger(kSeq) && q.Int(kSeq) >= 0 && q.Int(kSeq) <= INT32_MAX)
        e.sequence_nr = static_cast<int32_t>(q.Int(kSeq));
      std::string_view sizes = range.sizes;
      if (autograd_row && !q.IsNull(kSizes)) {
        std::string_view stored = q.Text(kSizes);
        if (!stored.empty()) sizes = stored;
      }
      if (!sizes.empty()) e.input_shapes = b_.Intern(sizes);
    } else {
      auto [it, inserted] = kinds.try_emplace(q.Int(kName), ActivityKind::kCpuOther);
      if (inserted) it->second = HostCallKind(b_.str(api));
      e.kind = it->second;
      e.trace_name = api;
      if (IsRuntimeOrDriver(e.kind)) e.correlation = q.Int(kId);
    }
    e.category = Category(e.kind);
    b_.AddEvent(e);
    ++b_.metadata().raw_events;
  }
  return q.status();
}

Status RpdImporter::ReadApiOps() {
  if (!db_.HasTable("rocpd_api_ops")) return Status::Ok();
  Query q(db_, "rocpd_api_ops", {"api_id", "op_id"}, kRpdWhat);
  q.ReadAhead();
  while (q.Next()) {
    if (q.BadIntegers({0, 1}, &b_.diagnostics())) continue;
    api_of_op_.try_emplace(q.Int(1), q.Int(0));
  }
  return q.status();
}

// rpd_tracer (rocmProfileData) fills rocpd_kernelapi from the launch call's arguments: gridX..Z
// are blocks (hipLaunchKernel's numBlocks, hipModuleLaunchKernel's gridDim), except for
// hipExtModuleLaunchKernel and hipHccModuleLaunchKernel, whose globalWorkSize counts work-items;
// those are turned into blocks (rounded up), as the model keeps them. groupSegmentSize is the
// launch's shared memory (LDS). rocpd_copyapi's size is a copy's bytes (width x height for a 2-D
// copy, whose size is 0).
Status RpdImporter::ReadLaunchArgs() {
  if (db_.HasTable("rocpd_kernelapi")) {
    PROFANA_RETURN_IF_ERROR(
        Query::CheckColumns(db_, "rocpd_kernelapi",
                            {"api_ptr_id", "gridX", "gridY", "gridZ", "workgroupX", "workgroupY",
                             "workgroupZ", "groupSegmentSize"},
                            kRpdWhat));
    enum { kApi, kGrid, kBlock = 4, kShared = 7, kCall };
    Query q(db_, "rocpd_kernelapi",
            "SELECT k.api_ptr_id, k.gridX, k.gridY, k.gridZ, k.workgroupX, k.workgroupY, "
            "k.workgroupZ, k.groupSegmentSize, s.string FROM rocpd_kernelapi k LEFT JOIN "
            "rocpd_api a ON a.id = k.api_ptr_id LEFT JOIN rocpd_string s ON s.id = a.apiName_id");
    while (q.Next()) {
      if (!q.IsInteger(kApi)) continue;
      std::string_view call = q.IsNull(kCall) ? std::string_view() : q.Text(kCall);
      bool work_items = call == "hipExtModuleLaunchKernel" || call == "hipHccModuleLaunchKernel";
      DeviceArgs a;
      for (int d = 0; d < 3; ++d) {
        a.block[d] = q.Count32(kBlock + d);
        a.grid[d] =
            work_items ? BlocksOfWorkItems(q.Count32(kGrid + d), a.block[d]) : q.Count32(kGrid + d);
      }
      a.shared_memory = q.Count32(kShared);
      args_of_api_[q.Int(kApi)] = a;
    }
    PROFANA_RETURN_IF_ERROR(q.status());
  }
  if (db_.HasTable("rocpd_copyapi")) {
    enum { kApi, kSize, kWidth, kHeight };
    Query q(db_, "rocpd_copyapi", {"api_ptr_id", "size", "width?", "height?"}, kRpdWhat);
    while (q.Next()) {
      if (!q.IsInteger(kApi) || !q.IsInteger(kSize)) continue;
      int64_t bytes = q.Int(kSize), area = 0;
      if (bytes == 0 && q.IsInteger(kWidth) && q.IsInteger(kHeight) && q.Int(kWidth) >= 0 &&
          q.Int(kHeight) >= 0 && !__builtin_mul_overflow(q.Int(kWidth), q.Int(kHeight), &area))
        bytes = area;
      if (bytes >= 0) args_of_api_[q.Int(kApi)].bytes = bytes;
    }
    PROFANA_RETURN_IF_ERROR(q.status());
  }
  return Status::Ok();
}

Status RpdImporter::ReadOps() {
  enum { kId, kGpu, kQueue, kStart, kEnd, kDescription, kType };
  Query q(db_, "rocpd_op",
          {"id", "gpuId", "queueId", "start", "end", "description_id", "opType_id"}, kRpdWhat);
  struct OpType {
    ActivityKind kind;
    StringId name;  // for copies and fills: the name every op of the type takes
  };
  std::unordered_map<int64_t, OpType> types;  // opType_id -> what it is
  q.ReadAhead();
  while (q.Next()) {
    if (q.BadIntegers({kId, kGpu, kQueue, kStart, kEnd, kDescription, kType}, &b_.diagnostics()) ||
        q.BadTimes(q.Int(kStart), q.Int(kEnd), &b_.diagnostics()))
      continue;
    auto [it, inserted] = types.try_emplace(q.Int(kType), OpType{ActivityKind::kDeviceOther, {}});
    if (inserted) {
      std::string_view type = b_.str(String(q.Int(kType)));
      // KernelExecution: a kernel; Task: a kernel of a graph launch (hipGraphLaunch).
      if (type == "KernelExecution" || type == "Task") {
        it->second.kind = ActivityKind::kKernel;
      } else if (type.substr(0, 4) == "Copy") {
        it->second = {ActivityKind::kMemcpy, b_.Intern(CopyName(type.substr(4)))};
      } else if (type == "FillBuffer") {
        it->second = {ActivityKind::kMemset, b_.Intern("Memset (Device)")};
      } else {
        it->second.name = String(q.Int(kType));
      }
    }
    TraceBuilder::Event e;
    e.kind = it->second.kind;
    e.trace_name = it->second.name;
    if (e.kind == ActivityKind::kKernel) {
      e.trace_name = String(q.Int(kDescription));
      if (e.trace_name.value == 0) e.trace_name = String(q.Int(kType));
    }
    e.category = Category(e.kind);
    e.thread = b_.Thread(q.Int(kGpu), q.Int(kQueue));
    e.start_ns = q.Int(kStart);
    e.end_ns = std::max(q.Int(kEnd), e.start_ns);
    e.device = static_cast<int32_t>(std::clamp<int64_t>(q.Int(kGpu), -1, INT32_MAX));
    if (const int64_t* api = api_of_op_.find(q.Int(kId))) {
      e.correlation = *api;
      auto args = args_of_api_.find(*api);
      if (args != args_of_api_.end() && IsDeviceWork(e.kind))
        e.has_device_args = true, e.device_args = args->second;
    }
    if (e.kind == ActivityKind::kMemcpy || e.kind == ActivityKind::kMemset) {
      e.has_device_args = true;
      e.device_args.SetCopyKindsFromName(b_.str(e.trace_name));
    }
    b_.AddEvent(e);
    ++b_.metadata().raw_events;
  }
  return q.status();
}

Result<Trace> RpdImporter::Run() {
  PROFANA_RETURN_IF_ERROR(CheckSchema());
  PROFANA_RETURN_IF_ERROR(ReadStrings());
  PROFANA_RETURN_IF_ERROR(ReadMetadata());
  PROFANA_RETURN_IF_ERROR(ReadApiCalls());
  PROFANA_RETURN_IF_ERROR(ReadApiOps());
  PROFANA_RETURN_IF_ERROR(ReadLaunchArgs());
  PROFANA_RETURN_IF_ERROR(ReadOps());
  db_.NoteProblems(&b_.diagnostics());
  return std::move(b_).Finish();
}

}  // namespace

bool SniffRpd(std::string_view bytes) {
  if (!sqlite::HasSqliteMagic(bytes)) return false;
  bool api = false, op = false;
  for (const std::string& t : sqlite::TableNames(bytes)) {
    api |= t == "rocpd_api";
    op |= t == "rocpd_op";
  }
  return api && op;
}

Result<Trace> ImportRpd(const InputBuffer& input) {
  PROFANA_ASSIGN_OR_RETURN(std::unique_ptr<Database> db, Database::Open(input));
  return RpdImporter(*db, input).Run();
}

}  // namespace profana::rocm
