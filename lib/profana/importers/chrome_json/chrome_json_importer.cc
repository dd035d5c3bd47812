#include "profana/importers/chrome_json/chrome_json_importer.h"

#include <cstring>
#include <string>

#include "fmt/format.h"
#include "profana/importers/chrome_json/json_errors.h"
#include "profana/importers/chrome_json/json_numbers.h"
#include "profana/importers/chrome_json/shapes_text.h"
#include "profana/importers/chrome_json/truncation.h"
#include "profana/model/trace_builder.h"
#include "simdjson.h"

namespace profana::json {
namespace {

namespace od = simdjson::ondemand;
using simdjson::error_code;

// Kineto's category names over the years, and what they mean.
ActivityKind KindOfCategory(std::string_view cat, bool* known) {
  struct Entry {
    std::string_view name;
    ActivityKind kind;
  };
  static constexpr Entry kCategories[] = {
      {"cpu_op", ActivityKind::kCpuOp},
      {"Operator", ActivityKind::kCpuOp},
      {"operator", ActivityKind::kCpuOp},
      {"user_annotation", ActivityKind::kUserAnnotation},
      {"cuda_runtime", ActivityKind::kRuntime},
      {"Runtime", ActivityKind::kRuntime},
      {"runtime", ActivityKind::kRuntime},
      {"mtia_runtime", ActivityKind::kRuntime},
      {"cuda_driver", ActivityKind::kDriver},
      {"cpu_instant_event", ActivityKind::kCpuInstant},
      {"python_function", ActivityKind::kPythonFunction},
      {"kernel", ActivityKind::kKernel},
      {"Kernel", ActivityKind::kKernel},
      {"gpu_memcpy", ActivityKind::kMemcpy},
      {"Memcpy", ActivityKind::kMemcpy},
      {"gpu_memset", ActivityKind::kMemset},
      {"Memset", ActivityKind::kMemset},
      {"gpu_user_annotation", ActivityKind::kGpuUserAnnotation},
      {"Trace", ActivityKind::kTraceSpan},
      {"mtia_ccp_events", ActivityKind::kDeviceOther},
      {"cuda_profiler_range", ActivityKind::kDeviceOther},
      {"cuda_sync", ActivityKind::kDeviceOther},
      {"overhead", ActivityKind::kCpuOther},
  };
  *known = true;
  // No category: the bare-array export writes none, and its events are all CPU ops.
  if (cat.empty()) return ActivityKind::kCpuOp;
  for (const Entry& e : kCategories)
    if (e.name == cat) return e.kind;
  *known = false;
  return ActivityKind::kCpuOther;
}

// One event's fields, staged while its object is read; committed only when it is complete,
// so an event cut off by truncation never reaches the builder.
struct Staged {
  char ph = 0;
  StringId name, cat;
  bool has_ts = false, has_dur = false;
  int64_t ts_ns = 0, dur_ns = 0;
  int64_t pid = 0, tid = 0;
  StringId pid_text, tid_text;
  int64_t flow_id = kNoId;
  // args
  int64_t external_id = kNoId, correlation = kNoId;
  int64_t sequence_nr = -1, fwd_thread = 0, device = -1;
  StringId input_shapes, call_stack, arg_name;
  bool has_bytes = false;
  int64_t bytes = 0, addr = kNoId, total_allocated = kNoId, total_reserved = kNoId;
  int64_t device_type = 0, device_id = -1;
  const char* bad_field = nullptr;  // first field of the wrong type
  const char* bad_number = nullptr; // first number out of range
  const char* dropped_arg = nullptr; // first args number out of range: dropped, event kept
};

class Reader {
 public:
  Reader(std::string_view text, const std::string& name, TraceBuilder* builder)
      : text_(text), name_(name), b_(builder) {}

  error_code ReadTopLevel(od::document& doc, bool* is_object);
  const std::string& fatal() const { return fatal_; }
  const char* last_location() const { return location_; }

 private:
  error_code ReadEvents(od::array events);
  error_code ReadEvent(od::value value, int64_t index, uint64_t offset);
  error_code ReadArgs(od::object args, Staged* s);
  error_code ReadMetadataField(std::string_view key, od::value value);
  void Commit(const Staged& s, int64_t index, uint64_t offset);

  error_code ReadString(od::value v, StringId* out, Staged* s, const char* field);
  error_code ReadInt(od::value v, int64_t* out, Staged* s, const char* field);
  error_code ReadTime(od::value v, int64_t* out, Staged* s, const char* field);
  error_code ReadIdOrText(od::value v, int64_t* num, StringId* text, Staged* s, const char* field);

  ActivityKind Kind(StringId cat, uint64_t offset, int64_t index);
  uint64_t OffsetOf(const char* p) const { return p ? static_cast<uint64_t>(p - text_.data()) : UINT64_MAX; }

  std::string_view text_;
  const std::string& name_;
  TraceBuilder* b_;
  std::string fatal_;
  const char* location_ = nullptr;
  std::string shapes_buffer_;
  std::vector<int8_t> kind_cache_;  // category id -> ActivityKind + 1 (0 = not yet looked up)
  StringId memory_name_;
  StringId process_name_key_, thread_name_key_;
};

error_code Reader::ReadString(od::value v, StringId* out, Staged* s, const char* field) {
  od::json_type type;
  if (auto err = v.type().get(type)) return err;
  if (type != od::json_type::string) {
    if (!s->bad_field) s->bad_field = field;
    return simdjson::SUCCESS;
  }
  std::string_view str;
  if (auto err = v.get_string().get(str)) return err;
  *out = b_->Intern(str);
  return simdjson::SUCCESS;
}

error_code Reader::ReadInt(od::value v, int64_t* out, Staged* s, const char* field) {
  od::json_type type;
  if (auto err = v.type().get(type)) return err;
  if (type == od::json_type::null) return simdjson::SUCCESS;
  if (type != od::json_type::number) {
    if (!s->bad_field) s->bad_field = field;
    return simdjson::SUCCESS;
  }
  std::string_view token = v.raw_json_token();
  if (ParseInteger(token, out)) return simdjson::SUCCESS;
  // An id past 2^63 in args (some tools write unsigned 64-bit ids) costs that field only.
  const char*& first = std::strncmp(field, "args.", 5) == 0 ? s->dropped_arg : s->bad_number;
  if (!first) first = field;
  return simdjson::SUCCESS;
}

error_code Reader::ReadTime(od::value v, int64_t* out, Staged* s, const char* field) {
  od::json_type type;
  if (auto err = v.type().get(type)) return err;
  if (type != od::json_type::number) {
    if (!s->bad_field) s->bad_field = field;
    return simdjson::SUCCESS;
  }
  std::string_view token = v.raw_json_token();
  if ((!ParseMicrosToNanos(token, out) || !TimeInRange(*out)) && !s->bad_number) s->bad_number = field;
  return simdjson::SUCCESS;
}

// pid and tid are numbers, or strings such as "CPU functions" and "stream 7".
error_code Reader::ReadIdOrText(od::value v, int64_t* num, StringId* text, Staged* s,
                                const char* field) {
  od::json_type type;
  if (auto err = v.type().get(type)) return err;
  if (type == od::json_type::string) return ReadString(v, text, s, field);
  return ReadInt(v, num, s, field);
}

ActivityKind Reader::Kind(StringId cat, uint64_t offset, int64_t index) {
  if (kind_cache_.size() <= cat.value) kind_cache_.resize(cat.value + 64, 0);
  if (kind_cache_[cat.value] == 0) {
    bool known;
    ActivityKind kind = KindOfCategory(b_->str(cat), &known);
    if (!known)
      b_->diagnostics().Add(DiagnosticKind::kUnknownCategory, offset, index, std::string(b_->str(cat)));
    kind_cache_[cat.value] = static_cast<int8_t>(static_cast<int>(kind) + 1);
  }
  return static_cast<ActivityKind>(kind_cache_[cat.value] - 1);
}

error_code Reader::ReadArgs(od::object args, Staged* s) {
  for (auto field_result : args) {
    od::field field;
    if (auto err = std::move(field_result).get(field)) return err;
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return err;
    od::value v = field.value();
    error_code err = simdjson::SUCCESS;
    switch (key.size() ? key[0] : 0) {
      case 'E':
        if (key == "External id") err = ReadInt(v, &s->external_id, s, "args.External id");
        break;
      case 'e':
        if (key == "external id") err = ReadInt(v, &s->external_id, s, "args.external id");
        break;
      case 'c':
        if (key == "correlation") err = ReadInt(v, &s->correlation, s, "args.correlation");
        break;
      case 'S':
        if (key == "Sequence number") err = ReadInt(v, &s->sequence_nr, s, "args.Sequence number");
        break;
      case 'F':
        if (key == "Fwd thread id") err = ReadInt(v, &s->fwd_thread, s, "args.Fwd thread id");
        break;
      case 'I':
        if (key == "Input Dims" || key == "Input dims") {
          od::json_type type;
          if ((err = v.type().get(type))) break;
          if (type != od::json_type::array) {
            if (!s->bad_field) s->bad_field = "args.Input Dims";
            break;
          }
          od::array dims;
          std::string_view raw;
          if ((err = v.get_array().get(dims)) || (err = dims.raw_json().get(raw))) break;
          shapes_buffer_.clear();
          // An empty list and no list both print as "[]": both are StringId 0.
          if (RenderPythonShapes(raw, &shapes_buffer_))
            s->input_shapes = shapes_buffer_ == "[]" ? StringId(0) : b_->Intern(shapes_buffer_);
          else if (!s->bad_field) s->bad_field = "args.Input Dims";
        }
        break;
      case 'C':
        if (key == "Call stack") err = ReadString(v, &s->call_stack, s, "args.Call stack");
        break;
      case 'd':
        if (key == "device") err = ReadInt(v, &s->device, s, "args.device");
        break;
      case 'D':
        if (key == "Device Type") err = ReadInt(v, &s->device_type, s, "args.Device Type");
        else if (key == "Device Id") err = ReadInt(v, &s->device_id, s, "args.Device Id");
        break;
      case 'B':
        if (key == "Bytes") {
          s->has_bytes = true;
          err = ReadInt(v, &s->bytes, s, "args.Bytes");
        }
        break;
      case 'A':
        if (key == "Addr") err = ReadInt(v, &s->addr, s, "args.Addr");
        break;
      case 'T':
        if (key == "Total Allocated") err = ReadInt(v, &s->total_allocated, s, "args.Total Allocated");
        else if (key == "Total Reserved") err = ReadInt(v, &s->total_reserved, s, "args.Total Reserved");
        break;
      case 'n':
        if (key == "name") err = ReadString(v, &s->arg_name, s, "args.name");
        break;
      default: break;
    }
    if (err) return err;
  }
  return simdjson::SUCCESS;
}

error_code Reader::ReadEvent(od::value value, int64_t index, uint64_t offset) {
  od::object obj;
  if (auto err = value.get_object().get(obj)) {
    if (err == simdjson::INCORRECT_TYPE) {
      fatal_ = fmt::format("event #{}: expected a JSON object, found something else", index);
      return simdjson::INCORRECT_TYPE;
    }
    return err;
  }
  Staged s;
  for (auto field_result : obj) {
    od::field field;
    if (auto err = std::move(field_result).get(field)) return err;
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return err;
    od::value v = field.value();
    error_code err = simdjson::SUCCESS;
    if (key == "ph") {
      StringId ph;
      if ((err = ReadString(v, &ph, &s, "ph"))) return err;
      std::string_view text = b_->str(ph);
      s.ph = text.size() == 1 ? text[0] : '?';
    } else if (key == "name") {
      err = ReadString(v, &s.name, &s, "name");
    } else if (key == "cat") {
      err = ReadString(v, &s.cat, &s, "cat");
    } else if (key == "ts") {
      s.has_ts = true;
      err = ReadTime(v, &s.ts_ns, &s, "ts");
    } else if (key == "dur") {
      s.has_dur = true;
      err = ReadTime(v, &s.dur_ns, &s, "dur");
    } else if (key == "pid") {
      err = ReadIdOrText(v, &s.pid, &s.pid_text, &s, "pid");
    } else if (key == "tid") {
      err = ReadIdOrText(v, &s.tid, &s.tid_text, &s, "tid");
    } else if (key == "id") {
      od::json_type type;
      if ((err = v.type().get(type))) return err;
      if (type == od::json_type::number) err = ReadInt(v, &s.flow_id, &s, "id");
    } else if (key == "args") {
      od::json_type type;
      if ((err = v.type().get(type))) return err;
      if (type == od::json_type::object) {
        od::object args;
        if ((err = v.get_object().get(args))) return err;
        err = ReadArgs(args, &s);
      } else if (type != od::json_type::null && !s.bad_field) {
        s.bad_field = "args";
      }
    }
    if (err) return err;
  }
  Commit(s, index, offset);
  return simdjson::SUCCESS;
}

void Reader::Commit(const Staged& s, int64_t index, uint64_t offset) {
  Diagnostics& diag = b_->diagnostics();
  if (s.bad_field) {
    diag.Add(DiagnosticKind::kWrongFieldType, offset, index,
             fmt::format("field \"{}\" has the wrong JSON type; event skipped", s.bad_field));
    return;
  }
  if (s.bad_number) {
    bool time = std::strcmp(s.bad_number, "ts") == 0 || std::strcmp(s.bad_number, "dur") == 0;
    diag.Add(DiagnosticKind::kBadNumber, offset, index,
             fmt::format("field \"{}\" is out of range{}; event skipped", s.bad_number,
                         time ? " (times must be within +-146 years of 0 in 64-bit nanoseconds)" : ""));
    return;
  }
  if (s.dropped_arg)
    diag.Add(DiagnosticKind::kDroppedField, offset, index,
             fmt::format("field \"{}\" does not fit in a signed 64-bit integer; field dropped, event kept",
                         s.dropped_arg));
  if (s.ph == 0) {
    diag.Add(DiagnosticKind::kMissingField, offset, index, "no \"ph\"; event skipped");
    return;
  }
  if (s.ph == 'M') {
    ++b_->metadata().metadata_events;
    if (!process_name_key_.value) {
      process_name_key_ = b_->Intern("process_name");
      thread_name_key_ = b_->Intern("thread_name");
    }
    if (s.name == thread_name_key_)
      b_->SetThreadName(b_->Thread(s.pid, s.tid, s.pid_text, s.tid_text), s.arg_name);
    else if (s.name == process_name_key_)
      b_->SetProcessName(s.pid, s.pid_text, s.arg_name);
    return;
  }
  if (!s.has_ts) {
    diag.Add(DiagnosticKind::kMissingField, offset, index, "no \"ts\"; event skipped");
    return;
  }
  ThreadId thread = b_->Thread(s.pid, s.tid, s.pid_text, s.tid_text);
  switch (s.ph) {
    case 'X':
    case 'B': {
      if (s.ph == 'X' && !s.has_dur) {
        diag.Add(DiagnosticKind::kMissingField, offset, index, "complete event (ph X) without \"dur\"; event skipped");
        return;
      }
      TraceBuilder::Event e;
      e.trace_name = s.name;
      e.category = s.cat;
      e.kind = Kind(s.cat, offset, index);
      e.thread = thread;
      e.start_ns = s.ts_ns;
      int64_t dur = s.dur_ns;
      if (dur < 0) {
        diag.Add(DiagnosticKind::kNegativeDuration, offset, index,
                 fmt::format("\"{}\" has dur {} us; kept with dur 0", b_->str(s.name), dur / 1000.0));
        dur = 0;
      }
      if (__builtin_add_overflow(s.ts_ns, dur, &e.end_ns) || !TimeInRange(e.end_ns)) {
        diag.Add(DiagnosticKind::kBadNumber, offset, index,
                 "ts + dur is out of range (times must be within +-146 years of 0 in 64-bit nanoseconds); "
                 "event skipped");
        return;
      }
      e.external_id = s.external_id;
      e.correlation = s.correlation;
      e.sequence_nr = static_cast<int32_t>(s.sequence_nr);
      e.fwd_thread = static_cast<int32_t>(s.fwd_thread);
      e.input_shapes = s.input_shapes;
      e.stack = b_->InternCallStack(s.call_stack);
      e.device = static_cast<int32_t>(s.device);
      if (s.ph == 'X') b_->AddEvent(e);
      else b_->Begin(e);
      return;
    }
    case 'E':
      if (!b_->End(thread, s.ts_ns))
        diag.Add(DiagnosticKind::kUnmatchedEnd, offset, index, "E event with no open B event on its thread; ignored");
      return;
    case 'i':
    case 'I': {
      if (!memory_name_.value) memory_name_ = b_->Intern("[memory]");
      if (s.name != memory_name_ || !s.has_bytes) {
        ++b_->metadata().instant_events;
        return;
      }
      TraceBuilder::Memory m;
      m.ts_ns = s.ts_ns;
      m.thread = thread;
      m.bytes = s.bytes;
      m.addr = s.addr;
      m.total_allocated = s.total_allocated;
      m.total_reserved = s.total_reserved;
      m.device_type = static_cast<int8_t>(s.device_type);
      m.device_id = static_cast<int16_t>(s.device_id);
      b_->AddMemory(m);
      return;
    }
    case 's':
    case 'f':
    case 't':
      if (s.flow_id != kNoId) b_->AddFlow(s.flow_id, s.ts_ns, thread, s.cat, s.ph == 's');
      return;
    default:
      diag.Add(DiagnosticKind::kUnknownPhase, offset, index, fmt::format("ph \"{}\"", s.ph));
      return;
  }
}

error_code Reader::ReadEvents(od::array events) {
  int64_t index = 0;
  for (auto element : events) {
    od::value value;
    if (auto err = element.get(value)) return err;
    const char* where = nullptr;
    if (value.current_location().get(where)) where = nullptr;
    location_ = where;
    ++b_->metadata().raw_events;
    if (auto err = ReadEvent(value, index, OffsetOf(where))) return err;
    ++index;
  }
  return simdjson::SUCCESS;
}

error_code Reader::ReadMetadataField(std::string_view key, od::value value) {
  TraceMetadata& meta = b_->metadata();
  od::json_type type;
  if (auto err = value.type().get(type)) return err;
  Staged scratch;  // wrong types in the header are ignored: it is informational
  if (key == "schemaVersion") return ReadInt(value, &meta.schema_version, &scratch, "schemaVersion");
  if (key == "baseTimeNanoseconds") return ReadInt(value, &meta.base_time_ns, &scratch, "baseTimeNanoseconds");
  if (key == "displayTimeUnit" && type == od::json_type::string) {
    std::string_view unit;
    if (auto err = value.get_string().get(unit)) return err;
    meta.display_time_unit = std::string(unit);
    return simdjson::SUCCESS;
  }
  if (key == "profanaLegacyKernels") {
    int64_t on = 0;
    if (auto err = ReadInt(value, &on, &scratch, "profanaLegacyKernels")) return err;
    meta.legacy_kernels = on != 0;
    return simdjson::SUCCESS;
  }
  if (key == "profile_memory") {
    if (type == od::json_type::boolean) {
      bool on = false;
      if (auto err = value.get_bool().get(on)) return err;
      meta.profile_memory = on;
    } else {
      int64_t on = 0;
      if (auto err = ReadInt(value, &on, &scratch, "profile_memory")) return err;
      meta.profile_memory = on != 0;
    }
    return simdjson::SUCCESS;
  }
  if (key == "distributedInfo" && type == od::json_type::object) {
    od::object info;
    if (auto err = value.get_object().get(info)) return err;
    for (auto f : info) {
      od::field field;
      if (auto err = std::move(f).get(field)) return err;
      std::string_view k;
      if (auto err = field.unescaped_key().get(k)) return err;
      od::value v = field.value();
      if (k == "rank") {
        if (auto err = ReadInt(v, &meta.rank, &scratch, "rank")) return err;
      } else if (k == "world_size") {
        if (auto err = ReadInt(v, &meta.world_size, &scratch, "world_size")) return err;
      } else if (k == "backend") {
        StringId backend;
        if (auto err = ReadString(v, &backend, &scratch, "backend")) return err;
        meta.backend = std::string(b_->str(backend));
      }
    }
    return simdjson::SUCCESS;
  }
  if (key == "deviceProperties" && type == od::json_type::array) {
    od::array devices;
    if (auto err = value.get_array().get(devices)) return err;
    for (auto d : devices) {
      od::value dv;
      if (auto err = d.get(dv)) return err;
      od::json_type dt;
      if (auto err = dv.type().get(dt)) return err;
      if (dt != od::json_type::object) continue;
      od::object dev;
      if (auto err = dv.get_object().get(dev)) return err;
      std::string device_name;
      for (auto f : dev) {
        od::field field;
        if (auto err = std::move(f).get(field)) return err;
        std::string_view k;
        if (auto err = field.unescaped_key().get(k)) return err;
        if (k == "name") {
          StringId n;
          if (auto err = ReadString(field.value(), &n, &scratch, "name")) return err;
          device_name = std::string(b_->str(n));
        }
      }
      meta.devices.push_back(std::move(device_name));
    }
    return simdjson::SUCCESS;
  }
  return simdjson::SUCCESS;  // other keys: skipped by On-Demand
}

error_code Reader::ReadTopLevel(od::document& doc, bool* is_object) {
  od::json_type type;
  if (auto err = doc.type().get(type)) return err;
  if (type == od::json_type::array) {
    *is_object = false;
    od::array events;
    if (auto err = doc.get_array().get(events)) return err;
    return ReadEvents(events);
  }
  if (type != od::json_type::object) {
    fatal_ = "top-level JSON value is neither an object nor an array: not a Chrome trace";
    return simdjson::INCORRECT_TYPE;
  }
  *is_object = true;
  od::object top;
  if (auto err = doc.get_object().get(top)) return err;
  bool saw_events = false;
  for (auto f : top) {
    od::field field;
    if (auto err = std::move(f).get(field)) return err;
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return err;
    if (key == "traceEvents") {
      od::array events;
      if (auto err = field.value().get_array().get(events)) {
        if (err == simdjson::INCORRECT_TYPE) fatal_ = "\"traceEvents\" is not an array";
        return err;
      }
      saw_events = true;
      if (auto err = ReadEvents(events)) return err;
    } else {
      if (auto err = ReadMetadataField(key, field.value())) return err;
    }
  }
  if (!saw_events) {
    fatal_ = "JSON object has no \"traceEvents\" array: not a Chrome trace";
    return simdjson::NO_SUCH_FIELD;
  }
  return simdjson::SUCCESS;
}

struct Attempt {
  Result<Trace> trace = Status(ErrorCode::kInternal, "not run");
  bool structural_error = false;  // a JSON syntax error, which truncation may explain
};

Attempt Parse(std::string_view padded_text, const InputBuffer& input, bool is_gzip_or_repaired) {
  Attempt attempt;
  TraceBuilder builder;
  builder.metadata().input_bytes = input.size;
  builder.metadata().compressed_bytes = input.gzipped ? input.compressed_size : 0;
  Reader reader(padded_text, input.name, &builder);
  od::parser parser;
  od::document doc;
  bool is_object = false;
  error_code err = parser.iterate(padded_text.data(), padded_text.size(), padded_text.size() + kInputPadding).get(doc);
  bool iterating = !err;
  if (!err) err = reader.ReadTopLevel(doc, &is_object);
  if (err) {
    // The document's position is only meaningful once iteration has started.
    const char* where = nullptr;
    if (!iterating || doc.current_location().get(where)) where = reader.last_location();
    uint64_t offset = where ? static_cast<uint64_t>(where - padded_text.data()) : 0;
    std::string what = reader.fatal().empty() ? simdjson::error_message(err) : reader.fatal();
    // simdjson finds these before iterating, without a position: find it, and say what it means.
    if (err == simdjson::UTF8_ERROR) {
      offset = FirstInvalidUtf8(padded_text);
      what = "invalid UTF-8 (JSON text must be UTF-8): the file is damaged, or was saved in another encoding";
    } else if (err == simdjson::DEPTH_ERROR) {
      offset = FirstTooDeep(padded_text, kMaxJsonDepth);
      what = fmt::format("JSON nested deeper than {} levels: no profiler writes that; the file is damaged or not a trace",
                         kMaxJsonDepth);
    }
    size_t line, column;
    LineAndColumn(padded_text, offset, &line, &column);
    attempt.structural_error = reader.fatal().empty();
    attempt.trace = Status(reader.fatal().empty() ? ErrorCode::kMalformed : ErrorCode::kMalformed,
                           fmt::format("{}: byte {} (line {}, column {}): {}", input.name, offset, line,
                                       column, what));
    return attempt;
  }
  builder.metadata().format = is_object ? "kineto-json" : "chrome-json-array";
  (void)is_gzip_or_repaired;
  attempt.trace = std::move(builder).Finish();
  return attempt;
}

}  // namespace

bool SniffChromeJson(std::string_view bytes) {
  size_t i = 0;
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") i = 3;  // UTF-8 byte order mark
  while (i < bytes.size() && (bytes[i] == ' ' || bytes[i] == '\n' || bytes[i] == '\r' || bytes[i] == '\t')) ++i;
  return i < bytes.size() && (bytes[i] == '{' || bytes[i] == '[');
}

Result<Trace> ImportChromeJson(const InputBuffer& input) {
  std::string_view text = input.view();
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  Attempt first = Parse(text, input, false);
  if (first.trace.ok() && !input.gzip_truncated) return std::move(first.trace);

  // A whole JSON value and then other bytes (a log appended to the file): read the value.
  size_t end = first.trace.ok() ? std::string_view::npos : EndOfTopLevelValue(text);
  if (end != std::string_view::npos && text.find_first_not_of(" \t\r\n", end) != std::string_view::npos) {
    std::string value(text.substr(0, end));
    value.append(kInputPadding, '\0');
    Attempt whole = Parse(std::string_view(value.data(), end), input, true);
    if (whole.trace.ok()) {
      size_t line, column;
      LineAndColumn(text, end, &line, &column);
      whole.trace->diagnostics.Add(DiagnosticKind::kTrailingContent, end, -1,
                                   fmt::format("{} bytes follow the end of the JSON value (line {}, column {}); ignored",
                                               text.size() - end, line, column));
      return std::move(whole.trace);
    }
  }

  // A syntax error may be a file cut short: recover every complete event and say what was lost.
  TruncationRepair repair = FindTruncationRepair(text);
  if (!repair.truncated) {
    if (first.trace.ok()) return std::move(first.trace);
    return first.trace.status();
  }
  std::string gzip_note = input.gzip_truncated
                              ? fmt::format(" (the gzip stream ends at compressed byte {})", input.gzip_truncated_at)
                              : "";
  if (repair.cut == 0) {
    return Status(ErrorCode::kTruncated,
                  fmt::format("{}: byte {}: input ends before the first complete event{}", input.name,
                              text.size(), gzip_note));
  }
  std::string repaired;
  repaired.reserve(repair.cut + repair.closers.size() + kInputPadding);
  repaired.append(text.substr(0, repair.cut));
  repaired.append(repair.closers);
  size_t repaired_size = repaired.size();
  repaired.append(kInputPadding, '\0');
  Attempt second = Parse(std::string_view(repaired.data(), repaired_size), input, true);
  if (!second.trace.ok()) return first.trace.ok() ? std::move(first.trace) : first.trace.status();
  Trace& trace = second.trace.value();
  uint64_t lost = text.size() - repair.cut;
  trace.metadata.lost_bytes = lost;
  size_t line, column;
  LineAndColumn(text, repair.cut, &line, &column);
  trace.diagnostics.Add(DiagnosticKind::kTruncatedInput, repair.cut, -1,
                        fmt::format("input ends inside an event{}: kept the {} events up to byte {} (line {}), "
                                    "dropped the last {} bytes",
                                    gzip_note, trace.metadata.raw_events, repair.cut, line, lost));
  return std::move(second.trace);
}

}  // namespace profana::json
