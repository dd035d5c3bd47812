#include "profana/importers/rocm/rocprofv3_json_importer.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "fmt/format.h"
#include "profana/importers/chrome_json/json_errors.h"
#include "profana/importers/common/pytorch_range.h"
#include "profana/importers/rocm/hip_names.h"
#include "profana/importers/sqlite/database.h"
#include "profana/model/trace_builder.h"
#include "simdjson.h"

namespace profana::rocm {
namespace {

namespace od = simdjson::ondemand;
using simdjson::error_code;
using simdjson::SUCCESS;

#define PROFANA_JSON_TRY(expr)             \
  do {                                     \
    if (error_code _e = (expr)) return _e; \
  } while (0)

constexpr std::string_view kTopKey = "rocprofiler-sdk-tool";

template <typename F>
error_code Fields(od::value v, F&& f) {
  od::object object;
  PROFANA_JSON_TRY(v.get_object().get(object));
  for (auto item : object) {
    od::field field;
    PROFANA_JSON_TRY(std::move(item).get(field));
    std::string_view key;
    PROFANA_JSON_TRY(field.unescaped_key().get(key));
    PROFANA_JSON_TRY(f(key, field.value()));
  }
  return SUCCESS;
}

template <typename F>
error_code Elements(od::value v, F&& f) {
  od::array array;
  PROFANA_JSON_TRY(v.get_array().get(array));
  for (auto item : array) {
    od::value element;
    PROFANA_JSON_TRY(std::move(item).get(element));
    PROFANA_JSON_TRY(f(element));
  }
  return SUCCESS;
}

// Every value of `v` is JSON (RFC 8259). On-Demand skips what the walk does not read without
// looking at its scalars, so a literal outside JSON's grammar (NaN, Infinity, 0x10) would pass
// unseen there: the document is checked whole first. Nesting is bounded by the parser's depth.
error_code CheckJson(od::value v) {
  od::json_type type;
  PROFANA_JSON_TRY(v.type().get(type));
  switch (type) {
    case od::json_type::object:
      return Fields(v, [](std::string_view, od::value field) { return CheckJson(field); });
    case od::json_type::array:
      return Elements(v, [](od::value element) { return CheckJson(element); });
    case od::json_type::number: {
      od::number n;
      return v.get_number().get(n);
    }
    case od::json_type::string: {
      std::string_view text;
      return v.get_string().get(text);
    }
    case od::json_type::boolean: {
      bool b;
      return v.get_bool().get(b);
    }
    default: {
      bool null = false;
      PROFANA_JSON_TRY(v.is_null().get(null));
      return null ? SUCCESS : simdjson::INCORRECT_TYPE;
    }
  }
}

// An integer that fits in int64 (timestamps and handles are unsigned in the SDK).
error_code Int(od::value v, int64_t* out) {
  uint64_t u = 0;
  if (v.get_int64().get(*out) == SUCCESS) return SUCCESS;
  PROFANA_JSON_TRY(v.get_uint64().get(u));
  if (u > static_cast<uint64_t>(INT64_MAX)) return simdjson::NUMBER_OUT_OF_RANGE;
  *out = static_cast<int64_t>(u);
  return SUCCESS;
}

// {"handle": N}, how the SDK writes agent, queue and stream ids.
error_code Handle(od::value v, int64_t* out) {
  return Fields(v, [&](std::string_view key, od::value value) -> error_code {
    return key == "handle" ? Int(value, out) : SUCCESS;
  });
}

// Field errors that concern one record (a wrong type, a number out of range): counted, the
// record skipped. Others break the document.
bool IsValueError(error_code e) {
  return e == simdjson::INCORRECT_TYPE || e == simdjson::NUMBER_OUT_OF_RANGE;
}

// What one tool entry (one process) names: read in the first pass.
struct Dictionaries {
  int64_t pid = 0;
  std::unordered_map<int64_t, int32_t> gpu_index;    // agent handle -> the GPU's index
  std::vector<std::vector<std::string>> operations;  // [kind][operation] -> name
  std::vector<std::string> kinds;                    // [kind] -> "HIP_RUNTIME_API", ...
  std::unordered_map<int64_t, std::string> markers;  // correlation id -> roctx message
  std::unordered_map<int64_t, std::string> kernels;  // kernel id -> name
};

// One record of buffer_records, whatever its kind: the fields profana reads.
struct Record {
  int64_t kind = -1, operation = -1, thread = 0, correlation = -1, start = 0, end = 0;
  int64_t agent = -1, queue = -1, kernel = -1, stream = -1, dst_agent = -1, src_agent = -1;
  // dispatch_info's grid_size (work-items) and workgroup_size, group_segment_size (LDS bytes);
  // a copy's bytes. -1 where absent.
  int64_t grid[3] = {-1, -1, -1}, workgroup[3] = {-1, -1, -1}, lds = -1, bytes = -1;
  bool has_start = false, has_end = false;
  const char* bad_field = nullptr;
};

class Rocprofv3Importer {
 public:
  explicit Rocprofv3Importer(const InputBuffer& input) : input_(input) {
    b_.metadata().format = TraceFormat::kRocprofv3Json;
    b_.metadata().input_bytes = input.size;
    b_.NumberThreadsByFirstUse();
  }
  Result<Trace> Run();

 private:
  // Pass 1 reads each entry's dictionaries, pass 2 its records.
  error_code Walk(od::document& doc, int pass);
  error_code ReadDictionaries(od::value entry, Dictionaries* d);
  error_code ReadStrings(od::value strings, Dictionaries* d);
  error_code ReadRecords(od::value entry, size_t entry_index);
  error_code ReadRecord(od::value v, Record* r);
  void AddRecord(std::string_view section, const Record& r, size_t entry_index, int64_t index);
  StringId Name(const std::string& text) { return b_.Intern(text); }

  const InputBuffer& input_;
  TraceBuilder b_;
  std::vector<Dictionaries> entries_;
};

error_code Rocprofv3Importer::ReadStrings(od::value strings, Dictionaries* d) {
  return Fields(strings, [&](std::string_view key, od::value value) -> error_code {
    if (key == "buffer_records") {
      // [{"kind": "HIP_RUNTIME_API", "operations": [...]}, ...], indexed by the kind's number.
      return Elements(value, [&](od::value kind) -> error_code {
        d->kinds.emplace_back();
        d->operations.emplace_back();
        return Fields(kind, [&](std::string_view k, od::value v) -> error_code {
          if (k == "kind") {
            std::string_view name;
            PROFANA_JSON_TRY(v.get_string().get(name));
            d->kinds.back() = std::string(name);
            return SUCCESS;
          }
          if (k != "operations") return SUCCESS;
          return Elements(v, [&](od::value op) -> error_code {
            std::string_view name;
            PROFANA_JSON_TRY(op.get_string().get(name));
            d->operations.back().emplace_back(name);
            return SUCCESS;
          });
        });
      });
    }
    if (key == "marker_api") {
      // A map from correlation id to the roctx message, as cereal writes maps.
      return Elements(value, [&](od::value item) -> error_code {
        int64_t id = -1;
        std::string message;
        PROFANA_JSON_TRY(Fields(item, [&](std::string_view k, od::value v) -> error_code {
          if (k == "key") return Int(v, &id);
          if (k != "value") return SUCCESS;
          std::string_view text;
          PROFANA_JSON_TRY(v.get_string().get(text));
          message = std::string(text);
          return SUCCESS;
        }));
        d->markers[id] = std::move(message);
        return SUCCESS;
      });
    }
    return SUCCESS;
  });
}

error_code Rocprofv3Importer::ReadDictionaries(od::value entry, Dictionaries* d) {
  return Fields(entry, [&](std::string_view key, od::value value) -> error_code {
    if (key == "metadata")
      return Fields(value, [&](std::string_view k, od::value v) -> error_code {
        return k == "pid" ? Int(v, &d->pid) : SUCCESS;
      });
    if (key == "agents")
      return Elements(value, [&](od::value agent) -> error_code {
        int64_t handle = -1, type = 0, index = -1;
        std::string product, name;
        PROFANA_JSON_TRY(Fields(agent, [&](std::string_view k, od::value v) -> error_code {
          if (k == "id") return Handle(v, &handle);
          if (k == "type") return Int(v, &type);
          if (k == "logical_node_type_id") return Int(v, &index);
          if (k != "product_name" && k != "name") return SUCCESS;
          std::string_view text;
          PROFANA_JSON_TRY(v.get_string().get(text));
          (k == "name" ? name : product) = std::string(sqlite::Excerpt(text, 200));
          return SUCCESS;
        }));
        if (type != 2 || index < 0 || index >= 256) return SUCCESS;  // 2: a GPU agent
        d->gpu_index[handle] = static_cast<int32_t>(index);
        std::vector<std::string>& devices = b_.metadata().devices;
        if (static_cast<size_t>(index) >= devices.size()) devices.resize(index + 1);
        devices[index] = product.empty() ? name : product;
        return SUCCESS;
      });
    if (key == "strings") return ReadStrings(value, d);
    if (key == "kernel_symbols")
      return Elements(value, [&](od::value symbol) -> error_code {
        int64_t id = -1;
        std::string formatted, raw;
        PROFANA_JSON_TRY(Fields(symbol, [&](std::string_view k, od::value v) -> error_code {
          if (k == "kernel_id") return Int(v, &id);
          if (k != "formatted_kernel_name" && k != "kernel_name") return SUCCESS;
          std::string_view text;
          PROFANA_JSON_TRY(v.get_string().get(text));
          (k == "kernel_name" ? raw : formatted) = std::string(text);
          return SUCCESS;
        }));
        d->kernels[id] = formatted.empty() ? raw : formatted;
        return SUCCESS;
      });
    return SUCCESS;
  });
}

error_code Rocprofv3Importer::ReadRecord(od::value v, Record* r) {
  auto value_error = [&](error_code e, const char* field) -> error_code {
    if (!IsValueError(e)) return e;
    if (!r->bad_field) r->bad_field = field;
    return SUCCESS;
  };
  return Fields(v, [&](std::string_view key, od::value value) -> error_code {
    if (key == "kind") return value_error(Int(value, &r->kind), "kind");
    if (key == "operation") return value_error(Int(value, &r->operation), "operation");
    if (key == "thread_id") return value_error(Int(value, &r->thread), "thread_id");
    if (key == "start_timestamp") {
      r->has_start = true;
      return value_error(Int(value, &r->start), "start_timestamp");
    }
    if (key == "end_timestamp") {
      r->has_end = true;
      return value_error(Int(value, &r->end), "end_timestamp");
    }
    if (key == "correlation_id")
      return Fields(value, [&](std::string_view k, od::value c) -> error_code {
        return k == "internal" ? value_error(Int(c, &r->correlation), "correlation_id") : SUCCESS;
      });
    if (key == "stream_id") return value_error(Handle(value, &r->stream), "stream_id");
    if (key == "dst_agent_id") return value_error(Handle(value, &r->dst_agent), "dst_agent_id");
    if (key == "src_agent_id") return value_error(Handle(value, &r->src_agent), "src_agent_id");
    if (key == "dispatch_info")
      return Fields(value, [&](std::string_view k, od::value d) -> error_code {
        if (k == "agent_id") return value_error(Handle(d, &r->agent), "agent_id");
        if (k == "queue_id") return value_error(Handle(d, &r->queue), "queue_id");
        if (k == "kernel_id") return value_error(Int(d, &r->kernel), "kernel_id");
        if (k == "group_segment_size") return value_error(Int(d, &r->lds), "group_segment_size");
        if (k == "grid_size" || k == "workgroup_size") {
          int64_t* xyz = k == "grid_size" ? r->grid : r->workgroup;
          const char* field = k == "grid_size" ? "grid_size" : "workgroup_size";
          return Fields(d, [&, xyz, field](std::string_view axis, od::value n) -> error_code {
            int i = axis == "x" ? 0 : axis == "y" ? 1 : axis == "z" ? 2 : -1;
            return i < 0 ? SUCCESS : value_error(Int(n, &xyz[i]), field);
          });
        }
        return SUCCESS;
      });
    if (key == "bytes") return value_error(Int(value, &r->bytes), "bytes");
    return SUCCESS;
  });
}

void Rocprofv3Importer::AddRecord(std::string_view section, const Record& r, size_t entry_index,
                                  int64_t index) {
  const Dictionaries& d = entries_[entry_index];
  std::string where = fmt::format("buffer_records.{} #{}", section, index);
  if (r.bad_field) {
    b_.diagnostics().Add(DiagnosticKind::kWrongFieldType, UINT64_MAX, -1,
                         fmt::format("{}: field \"{}\" has the wrong JSON type; record skipped",
                                     where, r.bad_field));
    return;
  }
  if (!r.has_start || !r.has_end) {
    b_.diagnostics().Add(DiagnosticKind::kMissingField, UINT64_MAX, -1,
                         fmt::format("{}: no {}; record skipped", where,
                                     r.has_start ? "end_timestamp" : "start_timestamp"));
    return;
  }
  if (!TimeInRange(r.start) || !TimeInRange(r.end)) {
    b_.diagnostics().Add(DiagnosticKind::kBadNumber, UINT64_MAX, -1,
                         fmt::format("{}: time {} ns is out of range (times must be within "
                                     "+-146 years of 0); record skipped",
                                     where, TimeInRange(r.start) ? r.end : r.start));
    return;
  }
  auto operation = [&]() -> std::string {
    if (r.kind >= 0 && static_cast<size_t>(r.kind) < d.operations.size() && r.operation >= 0 &&
        static_cast<size_t>(r.operation) < d.operations[r.kind].size())
      return d.operations[r.kind][r.operation];
    return fmt::format("operation {} of kind {}", r.operation, r.kind);
  };
  auto device = [&](int64_t agent) {
    auto it = d.gpu_index.find(agent);
    return it == d.gpu_index.end() ? -1 : it->second;
  };
  // Correlation ids count per process: the entry joins in above the 48 bits an id uses.
  int64_t correlation = r.correlation < 0 ? kNoId
                                          : static_cast<int64_t>(entry_index) << 48 |
                                                (r.correlation & ((int64_t{1} << 48) - 1));
  if (r.end < r.start)
    b_.diagnostics().Add(DiagnosticKind::kNegativeDuration, UINT64_MAX, -1,
                         fmt::format("{}: ends {} ns before it starts; kept with duration 0", where,
                                     r.start - r.end));
  TraceBuilder::Event e;
  e.start_ns = r.start;
  e.end_ns = std::max(r.end, r.start);
  e.correlation = correlation;
  if (section == "kernel_dispatch" || section == "memory_copy") {
    bool kernel = section == "kernel_dispatch";
    e.kind = kernel ? ActivityKind::kKernel : ActivityKind::kMemcpy;
    if (kernel) {
      auto name = d.kernels.find(r.kernel);
      e.trace_name =
          name != d.kernels.end() ? Name(name->second) : Name(fmt::format("kernel #{}", r.kernel));
      e.device = device(r.agent);
    } else {
      std::string op = operation();
      std::string_view direction = op;
      if (direction.substr(0, 12) == "MEMORY_COPY_") direction.remove_prefix(12);
      e.trace_name = Name(CopyName(direction));
      e.device = device(r.dst_agent);
      if (e.device < 0) e.device = device(r.src_agent);
    }
    e.thread = b_.Thread(e.device, r.stream < 0 ? 0 : r.stream);
    // As the rocpd importer: grid sizes count work-items, the model keeps blocks (rounded up).
    DeviceArgs& a = e.device_args;
    auto fits = [](int64_t v) { return v >= 0 && v <= INT32_MAX; };
    for (int i = 0; i < 3 && kernel; ++i) {
      if (fits(r.workgroup[i])) a.block[i] = static_cast<int32_t>(r.workgroup[i]);
      a.grid[i] = BlocksOfWorkItems(r.grid[i], a.block[i]);
    }
    if (kernel && fits(r.lds)) a.shared_memory = static_cast<int32_t>(r.lds);
    if (!kernel) {
      a.SetCopyKindsFromName(b_.str(e.trace_name));
      if (r.bytes >= 0) a.bytes = r.bytes;
    }
    e.has_device_args = true;
  } else {
    e.thread = b_.Thread(d.pid, r.thread);
    if (section == "marker_api") {
      if (r.start == r.end) {  // roctxMarkA: an instant
        ++b_.metadata().instant_events;
        return;
      }
      auto message = d.markers.find(r.correlation);
      std::string text = message != d.markers.end() ? message->second : operation();
      PyTorchRange range = ParsePyTorchRange(text);
      e.kind = range.is_op ? ActivityKind::kCpuOp : ActivityKind::kUserAnnotation;
      e.trace_name = b_.Intern(range.name);
      e.sequence_nr = range.sequence_nr;
      if (!range.sizes.empty()) e.input_shapes = b_.Intern(range.sizes);
      e.correlation = kNoId;
    } else {
      e.kind = section == "hsa_api" ? ActivityKind::kDriver : ActivityKind::kRuntime;
      e.trace_name = Name(operation());
    }
  }
  e.category = b_.Intern(CategoryOf(e.kind));
  b_.AddEvent(e);
  ++b_.metadata().raw_events;
}

error_code Rocprofv3Importer::ReadRecords(od::value entry, size_t entry_index) {
  return Fields(entry, [&](std::string_view key, od::value value) -> error_code {
    if (key != "buffer_records") return SUCCESS;
    return Fields(value, [&](std::string_view section, od::value records) -> error_code {
      static constexpr std::string_view kRead[] = {"kernel_dispatch", "memory_copy", "hip_api",
                                                   "hsa_api",         "marker_api",  "rccl_api"};
      if (std::find(std::begin(kRead), std::end(kRead), section) == std::end(kRead)) return SUCCESS;
      std::string name(section);
      int64_t index = 0;
      return Elements(records, [&](od::value v) -> error_code {
        Record r;
        PROFANA_JSON_TRY(ReadRecord(v, &r));
        AddRecord(name, r, entry_index, index++);
        return SUCCESS;
      });
    });
  });
}

error_code Rocprofv3Importer::Walk(od::document& doc, int pass) {
  od::object top;
  PROFANA_JSON_TRY(doc.get_object().get(top));
  for (auto item : top) {
    od::field field;
    PROFANA_JSON_TRY(std::move(item).get(field));
    std::string_view key;
    PROFANA_JSON_TRY(field.unescaped_key().get(key));
    if (key != kTopKey) continue;
    size_t index = 0;
    PROFANA_JSON_TRY(Elements(field.value(), [&](od::value entry) -> error_code {
      if (pass == 1) {
        entries_.emplace_back();
        return ReadDictionaries(entry, &entries_.back());
      }
      if (index >= entries_.size()) return simdjson::TAPE_ERROR;
      return ReadRecords(entry, index++);
    }));
  }
  return SUCCESS;
}

Result<Trace> Rocprofv3Importer::Run() {
  std::string_view text = input_.view();
  size_t bom = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // a UTF-8 byte order mark
  text.remove_prefix(bom);
  // On-Demand walks a document it has not seen the end of: a file cut short (a profiler killed
  // while writing) is refused before, with where it ends.
  size_t end = json::EndOfTopLevelValue(text);
  if (end == std::string_view::npos)
    return Status(ErrorCode::kTruncated,
                  fmt::format("{}: byte {}: the rocprofv3 JSON ends before its top-level object "
                              "closes (a cut-short file?)",
                              input_.name, input_.size));
  for (size_t i = end; i < text.size(); ++i) {
    char c = text[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    b_.diagnostics().Add(
        DiagnosticKind::kTrailingContent, bom + i, -1,
        fmt::format("{} bytes follow the end of the JSON value; ignored", text.size() - i));
    break;
  }
  text = text.substr(0, end);
  od::parser parser;
  // Pass 0 checks the document is JSON throughout, pass 1 reads each entry's dictionaries, pass
  // 2 its records.
  for (int pass = 0; pass <= 2; ++pass) {
    od::document doc;
    error_code e = parser.iterate(text.data(), text.size(), text.size() + kInputPadding).get(doc);
    // A document that failed to start has no position to ask for.
    bool started = !e;
    if (started) {
      od::value top;
      e = pass == 0 ? doc.get_value().get(top) : Walk(doc, pass);
      if (!e && pass == 0) e = CheckJson(top);
    }
    if (e) {
      const char* at = nullptr;
      uint64_t offset = started && doc.current_location().get(at) == SUCCESS && at
                            ? static_cast<uint64_t>(at - text.data())
                            : 0;
      return Status(
          ErrorCode::kMalformed,
          fmt::format("{}: byte {}: not a readable rocprofv3 JSON file: {}", input_.name,
                      bom + std::min<uint64_t>(offset, text.size()), simdjson::error_message(e)));
    }
  }
  if (entries_.empty())
    return Status(ErrorCode::kMalformed, fmt::format("{}: rocprofv3 JSON without entries in \"{}\"",
                                                     input_.name, kTopKey));
  return std::move(b_).Finish();
}

}  // namespace

bool SniffRocprofv3Json(std::string_view bytes) {
  size_t i = 0;
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  auto skip_space = [&] {
    while (i < bytes.size() &&
           (bytes[i] == ' ' || bytes[i] == '\n' || bytes[i] == '\r' || bytes[i] == '\t'))
      ++i;
  };
  skip_space();
  if (i >= bytes.size() || bytes[i] != '{') return false;
  ++i;
  skip_space();
  return bytes.substr(i, kTopKey.size() + 2) == "\"rocprofiler-sdk-tool\"";
}

Result<Trace> ImportRocprofv3Json(const InputBuffer& input) {
  return Rocprofv3Importer(input).Run();
}

}  // namespace profana::rocm
