#include "profana/importers/rocm/rocpd_importer.h"

#include <algorithm>
#include <map>
#include <memory>
#include <unordered_map>

#include "fmt/format.h"
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

constexpr std::string_view kWhat = "rocprofiler-sdk";

// The tables profana reads, each present once per process as "<base>_<uuid>" (the uuid's dashes
// written as underscores), or as "<base>" alone.
enum Base { kString, kEvent, kRegion, kDispatch, kCopy, kSymbol, kAgent, kMetadata, kBases };
constexpr const char* kBaseNames[kBases] = {"rocpd_string",      "rocpd_event",
                                            "rocpd_region",      "rocpd_kernel_dispatch",
                                            "rocpd_memory_copy", "rocpd_info_kernel_symbol",
                                            "rocpd_info_agent",  "rocpd_metadata"};

// "rocpd_region_0199a2b3_..." -> base kRegion, suffix "_0199a2b3_...".
bool SplitName(const std::string& table, Base* base, std::string* suffix) {
  for (int b = 0; b < kBases; ++b) {
    std::string_view name = kBaseNames[b];
    if (table.compare(0, name.size(), name) != 0) continue;
    std::string_view rest = std::string_view(table).substr(name.size());
    bool uuid = rest.empty() || rest[0] == '_';
    for (char c : rest)
      uuid = uuid && (c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
                      (c >= 'A' && c <= 'F'));
    if (!uuid) continue;
    *base = static_cast<Base>(b);
    *suffix = std::string(rest);
    return true;
  }
  return false;
}

struct Family {
  std::string tables[kBases];  // "" when absent
};

std::map<std::string, Family> Families(const std::vector<std::string>& tables) {
  std::map<std::string, Family> families;
  for (const std::string& t : tables) {
    Base base;
    std::string suffix;
    if (SplitName(t, &base, &suffix)) families[suffix].tables[base] = t;
  }
  // Only suffixes with something to read are processes.
  for (auto it = families.begin(); it != families.end();) {
    const Family& f = it->second;
    if (f.tables[kRegion].empty() && f.tables[kDispatch].empty())
      it = families.erase(it);
    else
      ++it;
  }
  return families;
}

class Importer : sqlite::TableImporter {
 public:
  Importer(Database& db, const InputBuffer& input)
      : TableImporter(db, input, TraceFormat::kRocpd) {}
  Result<Trace> Run();

 private:
  // One process's tables (one suffix), `family` numbering it for its correlation ids.
  Status ReadFamily(const Family& f, int64_t family);
  Status ReadStrings(const std::string& table);
  Status ReadAgents(const std::string& table);
  Status ReadSymbols(const std::string& table);
  Status ReadRegions(const Family& f, int64_t family);
  Status ReadDispatches(const Family& f, int64_t family);
  Status ReadCopies(const Family& f, int64_t family);

  // Correlation ids count per process: the family joins in, above the 48 bits an id uses.
  static int64_t Key(int64_t family, int64_t stack_id) {
    return (family << 48) | (stack_id & ((int64_t{1} << 48) - 1));
  }
  int32_t Device(int64_t agent) const {
    auto it = gpu_index_.find(agent);
    return it == gpu_index_.end() ? -1 : it->second;
  }
  // "SELECT <columns of the main table> , e.stack_id FROM <table> LEFT JOIN <event table>"; a
  // column named with a '?' suffix is optional, NULL where the table lacks it.
  Result<std::string> JoinEvent(const Family& f, Base base,
                                std::initializer_list<std::string_view> columns,
                                const std::string& extra_event_columns);

  std::unordered_map<int64_t, int32_t> gpu_index_;      // agent id -> GPU index
  std::unordered_map<int64_t, StringId> kernel_names_;  // kernel symbol id -> name
};

Result<std::string> Importer::JoinEvent(const Family& f, Base base,
                                        std::initializer_list<std::string_view> columns,
                                        const std::string& extra_event_columns) {
  const std::string& table = f.tables[base];
  std::vector<uint8_t> present;
  PROFANA_RETURN_IF_ERROR(Query::CheckColumns(db_, table, columns, kWhat, &present));
  std::string sql = "SELECT ";
  size_t k = 0;
  for (std::string_view c : columns) {
    bool optional = !c.empty() && c.back() == '?';
    if (optional) c.remove_suffix(1);
    sql += present[k++] ? fmt::format("t.\"{}\", ", c) : std::string("NULL, ");
  }
  if (f.tables[kEvent].empty())
    return sql + "NULL, NULL" + (extra_event_columns.empty() ? "" : ", NULL") + " FROM \"" + table +
           "\" t";
  PROFANA_RETURN_IF_ERROR(
      Query::CheckColumns(db_, f.tables[kEvent], {"id", "category_id", "stack_id"}, kWhat));
  return sql + "e.category_id, e.stack_id" + extra_event_columns + " FROM \"" + table +
         "\" t LEFT JOIN \"" + f.tables[kEvent] + "\" e ON e.id = t.event_id";
}

Status Importer::ReadStrings(const std::string& table) {
  Query q(db_, table, {"id", "string"}, kWhat);
  return strings_.Read(q, b_);
}

Status Importer::ReadAgents(const std::string& table) {
  enum { kId, kType, kIndex, kProduct, kName };
  Query q(db_, table, {"id", "type", "type_index?", "product_name?", "name?"}, kWhat);
  std::vector<std::string>& devices = b_.metadata().devices;
  while (q.Next()) {
    if (q.Text(kType) != "GPU" || !q.IsInteger(kId)) continue;
    int64_t index = q.IsInteger(kIndex) ? q.Int(kIndex) : static_cast<int64_t>(gpu_index_.size());
    if (index < 0 || index >= 256) continue;
    gpu_index_[q.Int(kId)] = static_cast<int32_t>(index);
    std::string_view name = q.Text(kProduct);
    if (name.empty()) name = q.Text(kName);
    if (static_cast<size_t>(index) >= devices.size()) {
      devices.resize(index + 1);
      b_.metadata().device_properties.resize(index + 1);
    }
    devices[index] = std::string(name);
    b_.metadata().device_properties[index].id = index;
  }
  return q.status();
}

Status Importer::ReadSymbols(const std::string& table) {
  Query q(db_, table, {"id", "display_name?", "kernel_name?"}, kWhat);
  while (q.Next()) {
    std::string_view name = q.Text(1);
    if (name.empty()) name = q.Text(2);
    kernel_names_[q.Int(0)] = b_.Intern(name);
  }
  return q.status();
}

Status Importer::ReadRegions(const Family& f, int64_t family) {
  enum { kPid, kTid, kStart, kEnd, kName, kCategory, kStack, kMessage };
  // roctx ranges keep their text in the event's extdata, {"message": "..."}.
  PROFANA_ASSIGN_OR_RETURN(
      std::string sql,
      JoinEvent(f, kRegion, {"pid", "tid", "start", "end", "name_id"},
                ", CASE WHEN json_valid(e.extdata) THEN json_extract(e.extdata, '$.message') END"));
  Query q(db_, f.tables[kRegion], sql);
  struct Category {
    ActivityKind kind;
    bool marker;
  };
  std::unordered_map<int64_t, Category> categories;
  q.ReadAhead();
  while (q.Next()) {
    if (q.BadIntegers({kPid, kTid, kStart, kEnd, kName}, &b_.diagnostics()) ||
        q.BadIntegers({kCategory, kStack}, &b_.diagnostics(), true) ||
        q.BadTimes(q.Int(kStart), q.Int(kEnd), &b_.diagnostics()))
      continue;
    StringId name = String(q.Int(kName));
    auto [it, inserted] = categories.try_emplace(q.IsNull(kCategory) ? -1 : q.Int(kCategory));
    if (inserted) {
      std::string_view category = q.IsNull(kCategory) ? "" : b_.str(String(q.Int(kCategory)));
      it->second.marker = category.find("MARKER") != std::string_view::npos;
      // Without a category (no event table) the call's own name says what it is.
      it->second.kind = category.find("HIP") != std::string_view::npos ||
                                category.find("RCCL") != std::string_view::npos
                            ? ActivityKind::kRuntime
                        : category.find("HSA") != std::string_view::npos ? ActivityKind::kDriver
                        : category.empty() ? HostCallKind(b_.str(name))
                                           : ActivityKind::kCpuOther;
    }
    TraceBuilder::Event e;
    e.thread = b_.Thread(q.Int(kPid), q.Int(kTid));
    e.start_ns = q.Int(kStart);
    e.end_ns = std::max(q.Int(kEnd), e.start_ns);
    if (it->second.marker) {
      std::string_view text = q.IsNull(kMessage) ? b_.str(name) : q.Text(kMessage);
      PyTorchRange range = ParsePyTorchRange(text);
      e.kind = range.is_op ? ActivityKind::kCpuOp : ActivityKind::kUserAnnotation;
      e.trace_name = b_.Intern(range.name);
      e.sequence_nr = range.sequence_nr;
      if (!range.sizes.empty()) e.input_shapes = b_.Intern(range.sizes);
    } else {
      e.kind = it->second.kind;
      e.trace_name = name;
      if (!q.IsNull(kStack) && e.kind != ActivityKind::kCpuOther)
        e.correlation = Key(family, q.Int(kStack));
    }
    e.category = b_.Intern(CategoryOf(e.kind));
    b_.AddEvent(e);
    ++b_.metadata().raw_events;
  }
  return q.status();
}

Status Importer::ReadDispatches(const Family& f, int64_t family) {
  enum {
    kAgent,
    kKernel,
    kStream,
    kStart,
    kEnd,
    kGrid,
    kBlock = kGrid + 3,
    kShared = kBlock + 3,
    kCategory,
    kStack
  };
  PROFANA_ASSIGN_OR_RETURN(
      std::string sql,
      JoinEvent(f, kDispatch,
                {"agent_id", "kernel_id", "stream_id", "start", "end", "grid_size_x?",
                 "grid_size_y?", "grid_size_z?", "workgroup_size_x?", "workgroup_size_y?",
                 "workgroup_size_z?", "group_segment_size?"},
                ""));

  Query q(db_, f.tables[kDispatch], sql);
  StringId category = b_.Intern(CategoryOf(ActivityKind::kKernel));
  q.ReadAhead();
  while (q.Next()) {
    if (q.BadIntegers({kAgent, kKernel, kStream, kStart, kEnd}, &b_.diagnostics()) ||
        q.BadIntegers({kCategory, kStack}, &b_.diagnostics(), true) ||
        q.BadTimes(q.Int(kStart), q.Int(kEnd), &b_.diagnostics()))
      continue;
    auto name = kernel_names_.find(q.Int(kKernel));
    TraceBuilder::Event e;
    e.trace_name = name != kernel_names_.end()
                       ? name->second
                       : b_.Intern(fmt::format("kernel #{}", q.Int(kKernel)));
    e.category = category;
    e.kind = ActivityKind::kKernel;
    e.device = Device(q.Int(kAgent));
    e.thread = b_.Thread(e.device, q.Int(kStream));
    e.start_ns = q.Int(kStart);
    e.end_ns = std::max(q.Int(kEnd), e.start_ns);
    if (!q.IsNull(kStack)) e.correlation = Key(family, q.Int(kStack));
    // rocprofiler-sdk's grid size counts work-items (the HSA dispatch packet's); the model keeps
    // blocks (workgroups), as CUDA and Kineto count them: rounded up.
    DeviceArgs& a = e.device_args;
    for (int d = 0; d < 3; ++d) {
      a.block[d] = q.Count32(kBlock + d);
      a.grid[d] = BlocksOfWorkItems(q.Count32(kGrid + d), a.block[d]);
    }
    a.shared_memory = q.Count32(kShared);  // LDS bytes per workgroup
    e.has_device_args = true;
    b_.AddEvent(e);
    ++b_.metadata().raw_events;
  }
  return q.status();
}

Status Importer::ReadCopies(const Family& f, int64_t family) {
  if (f.tables[kCopy].empty()) return Status::Ok();
  enum { kName, kDst, kSrc, kStream, kStart, kEnd, kSize, kCategory, kStack };
  PROFANA_ASSIGN_OR_RETURN(std::string sql, JoinEvent(f, kCopy,
                                                      {"name_id", "dst_agent_id", "src_agent_id",
                                                       "stream_id", "start", "end", "size?"},
                                                      ""));
  Query q(db_, f.tables[kCopy], sql);
  StringId category = b_.Intern(CategoryOf(ActivityKind::kMemcpy));
  std::unordered_map<int64_t, StringId> names;  // MEMORY_COPY_HOST_TO_DEVICE -> Kineto's name
  q.ReadAhead();
  while (q.Next()) {
    if (q.BadIntegers({kName, kStart, kEnd}, &b_.diagnostics()) ||
        q.BadIntegers({kDst, kSrc, kStream, kCategory, kStack}, &b_.diagnostics(), true) ||
        q.BadTimes(q.Int(kStart), q.Int(kEnd), &b_.diagnostics()))
      continue;
    auto [it, inserted] = names.try_emplace(q.Int(kName), StringId(0));
    if (inserted) {
      std::string_view op = b_.str(String(q.Int(kName)));
      if (op.substr(0, 12) == "MEMORY_COPY_") op.remove_prefix(12);
      it->second = b_.Intern(CopyName(op));
    }
    // The GPU end of the copy: its destination, or its source for a copy to the host.
    int32_t device = q.IsNull(kDst) ? -1 : Device(q.Int(kDst));
    if (device < 0 && !q.IsNull(kSrc)) device = Device(q.Int(kSrc));
    TraceBuilder::Event e;
    e.trace_name = it->second;
    e.category = category;
    e.kind = ActivityKind::kMemcpy;
    e.device = device;
    e.thread = b_.Thread(device, q.IsNull(kStream) ? 0 : q.Int(kStream));
    e.start_ns = q.Int(kStart);
    e.end_ns = std::max(q.Int(kEnd), e.start_ns);
    if (!q.IsNull(kStack)) e.correlation = Key(family, q.Int(kStack));
    e.has_device_args = true;
    e.device_args.SetCopyKindsFromName(b_.str(e.trace_name));
    if (q.IsInteger(kSize) && q.Int(kSize) >= 0) e.device_args.bytes = q.Int(kSize);
    b_.AddEvent(e);
    ++b_.metadata().raw_events;
  }
  return q.status();
}

Status Importer::ReadFamily(const Family& f, int64_t family) {
  if (f.tables[kString].empty())
    return Status(ErrorCode::kUnrecognizedFormat,
                  fmt::format("{}: rocpd database without its rocpd_string table", file_));
  PROFANA_RETURN_IF_ERROR(ReadStrings(f.tables[kString]));
  // Agent and kernel ids are the process's own.
  gpu_index_.clear();
  kernel_names_.clear();
  if (!f.tables[kAgent].empty()) PROFANA_RETURN_IF_ERROR(ReadAgents(f.tables[kAgent]));
  if (!f.tables[kSymbol].empty()) PROFANA_RETURN_IF_ERROR(ReadSymbols(f.tables[kSymbol]));
  if (!f.tables[kMetadata].empty()) {
    Query q(db_, f.tables[kMetadata], {"tag", "value"}, kWhat);
    while (q.Next())
      if (q.Text(0) == "schema_version" && q.Text(1).size() == 1 && q.Text(1)[0] >= '0' &&
          q.Text(1)[0] <= '9')
        b_.metadata().schema_version = q.Text(1)[0] - '0';
    PROFANA_RETURN_IF_ERROR(q.status());
  }
  if (!f.tables[kRegion].empty()) PROFANA_RETURN_IF_ERROR(ReadRegions(f, family));
  if (!f.tables[kDispatch].empty()) PROFANA_RETURN_IF_ERROR(ReadDispatches(f, family));
  return ReadCopies(f, family);
}

Result<Trace> Importer::Run() {
  std::map<std::string, Family> families = Families(db_.tables());
  if (families.empty())
    return Status(ErrorCode::kUnrecognizedFormat,
                  fmt::format("{}: rocpd database with neither rocpd_region nor "
                              "rocpd_kernel_dispatch tables: nothing to read",
                              file_));
  int64_t family = 0;
  for (const auto& [suffix, f] : families) PROFANA_RETURN_IF_ERROR(ReadFamily(f, family++));
  db_.NoteProblems(&b_.diagnostics());
  return std::move(b_).Finish();
}

}  // namespace

bool SniffRocpd(std::string_view bytes) {
  if (!sqlite::HasSqliteMagic(bytes)) return false;
  for (const std::string& t : sqlite::TableNames(bytes)) {
    Base base;
    std::string suffix;
    if (SplitName(t, &base, &suffix) && (base == kRegion || base == kDispatch)) return true;
  }
  return false;
}

Result<Trace> ImportRocpd(const InputBuffer& input) {
  PROFANA_ASSIGN_OR_RETURN(std::unique_ptr<Database> db, Database::Open(input));
  return Importer(*db, input).Run();
}

}  // namespace profana::rocm
