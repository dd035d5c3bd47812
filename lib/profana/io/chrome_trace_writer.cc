#include "profana/io/chrome_trace_writer.h"

#include "fmt/format.h"
#include "profana/base/json_string.h"
#include "profana/model/flop_inputs.h"
#include "profana/model/kineto_category.h"
#include "profana/model/launch_index.h"

namespace profana::io {
namespace {

// Python's str() of a list of lists, numbers, 'strings', True, False and None (how input shapes
// are kept: importers/chrome_json/shapes_text.h) as JSON, spaces as they are. False for text of
// any other form, which a native file may hold: what is written must parse.
bool PythonListToJson(std::string_view py, std::string* json) {
  int depth = 0;
  bool after_value = false, after_comma = false;  // what came last, spaces aside
  for (size_t i = 0; i < py.size(); ++i) {
    char c = py[i];
    if (c == ' ') {
      *json += c;
      continue;
    }
    if (depth == 0 && (after_value || c != '[')) return false;  // not one list
    if (c == ',' || c == ']') {
      if (c == ',' ? !after_value : after_comma) return false;  // [,1] [1,]
      *json += c;
      after_value = c == ']', after_comma = c == ',';
      depth -= c == ']';
      continue;
    }
    if (after_value) return false;  // [1 2]
    if (c == '[') {
      *json += c;
      ++depth, after_comma = false;
      continue;
    }
    if (c == '\'') {
      size_t end = py.find('\'', i + 1);
      if (end == std::string_view::npos) return false;
      AppendJsonString(py.substr(i + 1, end - i - 1), json);
      i = end;
    } else {
      size_t end = py.find_first_of(", ]", i);
      std::string_view token = py.substr(i, end == std::string_view::npos ? py.npos : end - i);
      if (token == "True")
        *json += "true";
      else if (token == "False")
        *json += "false";
      else if (token == "None")
        *json += "null";
      else if (IsJsonNumber(token))
        *json += token;
      else
        return false;
      i += token.size() - 1;
    }
    after_value = true, after_comma = false;
  }
  return depth == 0 && after_value;
}

class Writer {
 public:
  Writer(const Trace& t, std::string* out) : t_(t), out_(*out) {}

  void Int(int64_t v) {
    fmt::format_int f(v);
    out_.append(f.data(), f.size());
  }
  // Nanoseconds as exact microseconds with three decimals: the importer reads them back exactly.
  void Micros(int64_t ns) {
    uint64_t mag = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
    if (ns < 0) out_ += '-';
    fmt::format_int whole(mag / 1000);
    out_.append(whole.data(), whole.size());
    unsigned frac = static_cast<unsigned>(mag % 1000);
    char buf[4] = {'.', static_cast<char>('0' + frac / 100),
                   static_cast<char>('0' + frac / 10 % 10), static_cast<char>('0' + frac % 10)};
    out_.append(buf, 4);
  }
  void Str(StringId id) { AppendJsonString(t_.str(id), &out_); }
  void Key(const char* key) {
    out_ += '"';
    out_ += key;
    out_ += "\":";
  }
  void Track(ThreadId thread) {
    const ThreadInfo& th = t_.threads[thread.value];
    Key("pid");
    th.pid_text.value ? Str(th.pid_text) : Int(th.pid);
    out_ += ',';
    Key("tid");
    th.tid_text.value ? Str(th.tid_text) : Int(th.tid);
  }
  // Where and when on the timeline: "pid","tid","ts".
  void Place(ThreadId thread, int64_t ts_ns) {
    Track(thread);
    out_ += ',';
    Key("ts");
    Micros(ts_ns);
  }
  void Separator() {
    out_ += first_ ? "\n" : ",\n";
    first_ = false;
  }

  void Event(size_t i) {
    const EventTable& e = t_.events;
    Separator();
    out_ += "{\"ph\":\"X\",";
    if (e.category[i].value) {
      Key("cat");
      Str(e.category[i]);
      out_ += ',';
    } else if (const char* cat =
                   e.kind[i] == ActivityKind::kCpuOp ? nullptr : KinetoCategory(e.kind[i])) {
      // Importers without categories (nvprof) still need theirs to round-trip; a CPU op needs
      // none.
      Key("cat");
      AppendJsonString(cat, &out_);
      out_ += ',';
    }
    Key("name");
    Str(e.trace_name[i]);
    out_ += ',';
    Place(e.thread[i], e.start_ns[i]);
    out_ += ',';
    Key("dur");
    Micros(e.end_ns[i] - e.start_ns[i]);
    size_t args_at = out_.size();
    out_ += ",\"args\":{";
    size_t open = out_.size();
    auto arg = [&](const char* key) {
      if (out_.size() != open) out_ += ',';
      Key(key);
    };
    if (e.external_id[i] != kNoId) arg("External id"), Int(e.external_id[i]);
    if (e.correlation[i] != kNoId) arg("correlation"), Int(e.correlation[i]);
    if (e.sequence_nr[i] != -1) arg("Sequence number"), Int(e.sequence_nr[i]);
    if (e.fwd_thread[i] != 0) arg("Fwd thread id"), Int(e.fwd_thread[i]);
    if (e.device[i] != -1) arg("device"), Int(e.device[i]);
    if (e.input_shapes[i].value) InputDims(t_.str(e.input_shapes[i]), arg);
    if (e.comm[i].value) CommArgs(t_.str(e.comm[i]), arg);
    if (e.flop_inputs[i].value) FlopArgs(t_.str(e.flop_inputs[i]), arg);
    if (e.device_args[i] != kNoDeviceArgs) DeviceArgsOf(t_.device_args.Get(e.device_args[i]), arg);
    if (e.stack[i].value) {
      arg("Call stack");
      std::string joined;
      for (StringId f : t_.StackFrames(e.stack[i])) {
        if (!joined.empty()) joined += ';';
        joined += t_.str(f);
      }
      AppendJsonString(joined, &out_);
    }
    if (out_.size() == open)
      out_.resize(args_at);
    else
      out_ += '}';
    out_ += '}';
  }

  // A collective's args (EventTable::comm) as Kineto wrote them: sizes as numbers.
  template <typename Arg>
  void CommArgs(std::string_view joined, Arg& arg) {
    std::string_view fields[kCommFields];
    SplitComm(joined, fields);
    for (size_t f = 0; f < kCommFields; ++f) {
      if (fields[f].empty()) continue;
      arg(kCommArgNames[f].data());  // string literals: NUL-terminated
      auto c = static_cast<CommField>(f);
      bool number =
          (c == CommField::kGroupSize || c == CommField::kInNelems || c == CommField::kOutNelems) &&
          IsJsonNumber(fields[f]);
      if (number)
        out_ += fields[f];
      else
        AppendJsonString(fields[f], &out_);
    }
  }

  // The args FLOP counts read besides the shapes (model/flop_inputs.h), written again from what
  // they hold; left out when they do not read as what Kineto writes.
  template <typename Arg>
  void FlopArgs(std::string_view joined, Arg& arg) {
    std::vector<std::string> types, concrete;
    if (!ParseFlopInputLists(joined, &types, &concrete)) return;
    auto list = [&](const char* key, const std::vector<std::string>& values) {
      if (values.empty()) return;
      arg(key);
      out_ += '[';
      for (size_t k = 0; k < values.size(); ++k) {
        if (k) out_ += ", ";
        AppendJsonString(values[k], &out_);
      }
      out_ += ']';
    };
    list("Input type", types);
    list("Concrete Inputs", concrete);
  }

  // A device activity's args as Kineto writes them (GpuActivity::metadataJson), each only when
  // recorded. The copy kinds are not args: they are in the copy's name, which is written.
  template <typename Arg>
  void DeviceArgsOf(const DeviceArgs& a, Arg& arg) {
    auto number = [&](const char* key, double v) {
      if (v >= 0) arg(key), out_ += fmt::format("{}", v);
    };
    auto integer = [&](const char* key, int64_t v) {
      if (v >= 0) arg(key), Int(v);
    };
    auto dims = [&](const char* key, const int32_t(&d)[3]) {
      if (d[0] < 0 && d[1] < 0 && d[2] < 0) return;
      arg(key);
      out_ += fmt::format("[{}, {}, {}]", d[0], d[1], d[2]);
    };
    integer("registers per thread", a.registers);
    integer("shared memory", a.shared_memory);
    number("blocks per SM", a.blocks_per_sm);
    number("warps per SM", a.warps_per_sm);
    dims("grid", a.grid);
    dims("block", a.block);
    number("est. achieved occupancy %", a.occupancy);
    integer("bytes", a.bytes);
    number("memory bandwidth (GB/s)", a.bandwidth);
  }

  // Input shapes are kept as Python's str() of the list; JSON is the same text with JSON's
  // spellings of strings, booleans and None. Text that does not convert is left out.
  template <typename Arg>
  void InputDims(std::string_view py, Arg& arg) {
    std::string json;
    if (!PythonListToJson(py, &json)) return;
    arg("Input Dims");
    out_ += json;
  }

  void Memory(size_t i) {
    const MemoryTable& m = t_.memory;
    Separator();
    out_ += "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",";
    Place(m.thread[i], m.ts_ns[i]);
    out_ += ",\"args\":{";
    Key("Device Type");
    Int(m.device_type[i]);
    out_ += ',';
    Key("Device Id");
    Int(m.device_id[i]);
    out_ += ',';
    Key("Bytes");
    Int(m.bytes[i]);
    if (m.addr[i] != kNoId) out_ += ',', Key("Addr"), Int(m.addr[i]);
    if (m.total_allocated[i] != kNoId)
      out_ += ',', Key("Total Allocated"), Int(m.total_allocated[i]);
    if (m.total_reserved[i] != kNoId) out_ += ',', Key("Total Reserved"), Int(m.total_reserved[i]);
    out_ += "}}";
  }

  void Flow(bool start, int64_t id, int64_t ts_ns, ThreadId thread, std::string_view cat) {
    Separator();
    out_ += start ? "{\"ph\":\"s\"," : "{\"ph\":\"f\",\"bp\":\"e\",";
    Key("id");
    Int(id);
    out_ += ',';
    Place(thread, ts_ns);
    out_ += ',';
    Key("cat");
    AppendJsonString(cat, &out_);
    out_ += ',';
    Key("name");
    AppendJsonString(cat, &out_);
    out_ += '}';
  }

  // Kineto's ac2g arrows, from the launching runtime call to the device activity with the same
  // correlation id; written only when the trace has no flows of its own (an nvprof database).
  void LaunchFlows() {
    const EventTable& e = t_.events;
    LaunchIndex launches(e);
    for (uint32_t i = 0; i < e.size(); ++i) {
      if (!IsDeviceActivity(e.kind[i])) continue;
      std::optional<EventId> launch = launches.Launch(e.correlation[i]);
      if (!launch) continue;
      Flow(true, e.correlation[i], e.start_ns[launch->value], e.thread[launch->value], "ac2g");
      Flow(false, e.correlation[i], e.start_ns[i], e.thread[i], "ac2g");
    }
  }

  // In the order the threads first appear in the output, so that the trace read back numbers its
  // threads the same way and writing it again gives the same text.
  void Names() {
    std::vector<uint8_t> seen(t_.threads.size(), 0);
    std::vector<uint32_t> order;
    auto visit = [&](ThreadId id) {
      if (!seen[id.value]) seen[id.value] = 1, order.push_back(id.value);
    };
    for (ThreadId id : t_.events.thread) visit(id);
    for (ThreadId id : t_.memory.thread) visit(id);
    for (ThreadId id : t_.flows.thread) visit(id);
    for (uint32_t i = 0; i < t_.threads.size(); ++i) visit(ThreadId(i));
    for (uint32_t index : order) {
      const ThreadInfo& th = t_.threads[index];
      for (int which = 0; which < 2; ++which) {
        StringId name = which ? th.process_name : th.name;
        if (!name.value) continue;
        Separator();
        out_ += which ? "{\"ph\":\"M\",\"name\":\"process_name\","
                      : "{\"ph\":\"M\",\"name\":\"thread_name\",";
        Track(ThreadId(index));
        out_ += ",\"args\":{\"name\":";
        Str(name);
        out_ += "}}";
      }
    }
  }

 private:
  const Trace& t_;
  std::string& out_;
  bool first_ = true;
};

}  // namespace

std::string WriteChromeTrace(const Trace& t) {
  std::string out;
  out.reserve(t.events.size() * 200 + 4096);
  const TraceMetadata& m = t.metadata;
  // Relative times are written as a bare array, the one layout whose times are read as relative
  // (docs/semantics.md): a Kineto object would move the origin to its span or first event.
  bool array = m.origin.kind == TimeOriginKind::kRelative;
  if (array) {
    out += "[";
  } else {
    out += "{";
    if (m.schema_version >= 0) out += fmt::format("\"schemaVersion\":{},\n", m.schema_version);
    if (!m.devices.empty()) {
      out += "\"deviceProperties\":[";
      for (size_t i = 0; i < m.devices.size(); ++i) {
        out += i ? ",{\"name\":" : "{\"name\":";
        AppendJsonString(m.devices[i], &out);
        if (i < m.device_properties.size()) {
          DeviceProperties p = m.device_properties[i];
          if (p.id >= 0) out += fmt::format(",\"id\":{}", p.id);
          ForEachDeviceProperty(p, [&](const char* key, int64_t v) {
            if (v >= 0) out += fmt::format(",\"{}\":{}", key, v);
          });
        }
        out += '}';
      }
      out += "],\n";
    }
    if (m.rank >= 0) {
      out +=
          fmt::format("\"distributedInfo\":{{\"rank\":{},\"world_size\":{}", m.rank, m.world_size);
      if (!m.backend.empty()) {
        out += ",\"backend\":";
        AppendJsonString(m.backend, &out);
      }
      out += "},\n";
    }
    if (m.profile_memory) out += "\"profile_memory\":1,\n";
    if (m.record_shapes) out += "\"record_shapes\":1,\n";
    if (m.with_stack) out += "\"with_stack\":1,\n";
    if (m.with_flops) out += "\"with_flops\":1,\n";
    if (m.with_modules) out += "\"with_modules\":1,\n";
    // nvprof profiles are read legacy-style (kernels belong to the markers around their launch);
    // the key carries that through a round trip.
    if (m.legacy_kernels) out += "\"profanaLegacyKernels\":1,\n";
    if (m.base_time_ns != kNoId)
      out += fmt::format("\"baseTimeNanoseconds\":{},\n", m.base_time_ns);
    if (!m.display_time_unit.empty()) {
      out += "\"displayTimeUnit\":";
      AppendJsonString(m.display_time_unit, &out);
      out += ",\n";
    }
    out += "\"traceEvents\":[";
  }
  Writer w(t, &out);
  for (size_t i = 0; i < t.events.size(); ++i) w.Event(i);
  for (size_t i = 0; i < t.memory.size(); ++i) w.Memory(i);
  if (t.flows.size() == 0) {
    w.LaunchFlows();
  } else {
    for (size_t i = 0; i < t.flows.size(); ++i)
      w.Flow(t.flows.is_start[i] != 0, t.flows.id[i], t.flows.ts_ns[i], t.flows.thread[i],
             t.str(t.flows.category[i]));
  }
  // Names last: a process_name names the threads of its pid that exist when it is read.
  w.Names();
  out += array ? "\n]\n" : "\n]}\n";
  return out;
}

}  // namespace profana::io
