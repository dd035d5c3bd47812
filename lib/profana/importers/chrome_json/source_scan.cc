#include "profana/importers/chrome_json/source_scan.h"

#include <simdjson.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "fmt/format.h"
#include "profana/importers/chrome_json/json_numbers.h"

namespace profana::json {
namespace {

namespace od = simdjson::ondemand;
using Key = std::tuple<int64_t, int64_t, std::string_view>;  // start, end, name as written

// One element's fields, read from its own text.
struct Fields {
  bool is_x = false;
  std::string_view name;
  int64_t ts = 0, dur = 0;
  bool has_ts = false, has_dur = false, cuda_sync = false;
  size_t args_open = 0;  // offset in the element, one past the args' '{'
  bool args_empty = false;
  int64_t wait_record = kNoId, wait_stream = -1;
};

bool ReadNumber(od::value& v, int64_t* out, bool time) {
  std::string_view raw = v.raw_json_token();
  while (!raw.empty() &&
         (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' || raw.back() == '\t'))
    raw.remove_suffix(1);
  return time ? ParseMicrosToNanos(raw, out) : ParseInteger(raw, out);
}

// Where the args object lies in the element (base: the element's first byte), and its text.
simdjson::error_code ReadArgs(od::value& v, const char* base, Fields* f, std::string_view* text) {
  od::object obj;
  if (v.get_object().get(obj)) return simdjson::SUCCESS;  // args of another type: no args
  std::string_view raw;
  if (auto err = obj.raw_json().get(raw)) return err;
  f->args_open = static_cast<size_t>(raw.data() - base) + 1;
  size_t k = 1;
  while (k < raw.size() && (raw[k] == ' ' || raw[k] == '\n' || raw[k] == '\r' || raw[k] == '\t'))
    ++k;
  f->args_empty = k < raw.size() && raw[k] == '}';
  *text = raw;
  return simdjson::SUCCESS;
}

// The wait args of a cuda_sync event, from its args' own text.
void ReadWaits(std::string_view args, Fields* f) {
  simdjson::padded_string text(args);
  static thread_local od::parser parser;
  od::document doc;
  if (parser.iterate(text).get(doc)) return;
  od::object obj;
  if (doc.get_object().get(obj)) return;
  for (auto field : obj) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return;
    od::value v;
    if (field.value().get(v)) return;
    if (key == "wait_on_cuda_event_record_corr_id") {
      if (!ReadNumber(v, &f->wait_record, false)) f->wait_record = kNoId;
    } else if (key == "wait_on_stream") {
      if (!ReadNumber(v, &f->wait_stream, false)) f->wait_stream = -1;
    }
  }
}

simdjson::error_code ReadElement(std::string_view element, Fields* f, std::string* name_copy) {
  simdjson::padded_string text(element);
  static thread_local od::parser parser;
  od::document doc;
  if (auto err = parser.iterate(text).get(doc)) return err;
  od::object obj;
  if (auto err = doc.get_object().get(obj)) return err;
  std::string_view args_text;
  for (auto field : obj) {
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return err;
    od::value v;
    if (auto err = field.value().get(v)) return err;
    if (key == "ph") {
      std::string_view ph;
      if (!v.get_string().get(ph)) f->is_x = ph == "X";
    } else if (key == "name") {
      std::string_view s;
      if (!v.get_string().get(s)) {
        *name_copy = std::string(s);
        f->name = *name_copy;
      }
    } else if (key == "cat") {
      std::string_view s;
      if (!v.get_string().get(s)) f->cuda_sync = s == "cuda_sync";
    } else if (key == "ts") {
      f->has_ts = ReadNumber(v, &f->ts, true);
    } else if (key == "dur") {
      f->has_dur = ReadNumber(v, &f->dur, true);
    } else if (key == "args") {
      if (auto err = ReadArgs(v, text.data(), f, &args_text)) return err;
    }
  }
  if (f->cuda_sync && !args_text.empty()) ReadWaits(args_text, f);
  return simdjson::SUCCESS;
}

}  // namespace

Result<SourceEvents> ScanSourceEvents(const InputBuffer& input, const Trace& trace) {
  auto fail = [&](const std::string& why) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: not a Chrome-trace JSON document: {}", input.name, why));
  };
  od::parser parser;
  od::document doc;
  if (auto err = parser.iterate(input.data.get(), input.size, input.size + kInputPadding).get(doc))
    return fail(simdjson::error_message(err));
  const char* base = input.data.get();
  od::array events;
  od::json_type type;
  if (auto err = doc.type().get(type)) return fail(simdjson::error_message(err));
  if (type == od::json_type::object) {
    od::value v;
    if (doc["traceEvents"].get(v)) return fail("no \"traceEvents\"");
    if (v.get_array().get(events)) return fail("\"traceEvents\" is not an array");
  } else if (type == od::json_type::array) {
    if (auto err = doc.get_array().get(events)) return fail(simdjson::error_message(err));
  } else {
    return fail("neither an object nor an array");
  }

  SourceEvents out;
  struct Candidates {
    std::vector<uint32_t> events;  // trace events with one key, in trace order
    size_t next = 0;               // the first not yet matched
  };
  std::map<Key, Candidates> unmatched;
  const EventTable& ev = trace.events;
  for (uint32_t e = 0; e < ev.size(); ++e)
    unmatched[{ev.start_ns[e], ev.end_ns[e], trace.str(ev.trace_name[e])}].events.push_back(e);
  out.element_of.assign(ev.size(), UINT32_MAX);
  out.wait_record.assign(ev.size(), kNoId);
  out.wait_stream.assign(ev.size(), -1);
  bool any_wait = false;
  std::string name;
  size_t last_end = 0;
  for (auto item : events) {
    od::value v;
    if (auto err = item.get(v)) return fail(simdjson::error_message(err));
    od::object element;
    if (v.get_object().get(element)) return fail("an event is not an object");
    std::string_view raw;
    if (auto err = element.raw_json().get(raw)) return fail(simdjson::error_message(err));
    while (!raw.empty() && raw.back() != '}') raw.remove_suffix(1);
    SourceEvent se;
    se.begin = static_cast<size_t>(raw.data() - base);
    se.end = se.begin + raw.size();
    last_end = se.end;
    Fields f;
    if (!ReadElement(raw, &f, &name)) {
      if (f.args_open) {
        se.args_open = se.begin + f.args_open;
        se.args_empty = f.args_empty;
      }
      if (f.is_x && f.has_ts && f.has_dur) {
        Key key{f.ts, f.ts + f.dur, f.name};
        auto it = unmatched.find(key);
        if (it != unmatched.end() && it->second.next < it->second.events.size()) {
          uint32_t e = it->second.events[it->second.next++];
          se.event = EventId(e);
          out.element_of[e] = static_cast<uint32_t>(out.elements.size());
          out.wait_record[e] = f.wait_record;
          out.wait_stream[e] = static_cast<int32_t>(f.wait_stream);
          any_wait |= f.wait_record != kNoId;
        }
      }
    }
    out.elements.push_back(se);
  }
  // The array's closing bracket: the first ']' after the last element (or its '[').
  std::string_view text = input.view();
  size_t close = text.find(']', last_end);
  if (out.elements.empty() || close == std::string_view::npos)
    return fail("no events, or the events array does not close");
  out.events_close = close;
  if (!any_wait) {
    out.wait_record.clear();
    out.wait_stream.clear();
  }
  return out;
}

Result<std::optional<SourceFile>> ReadSourceFile(const std::string& path, const Trace& trace,
                                                 const InputLimits& limits) {
  if (path == "-") return std::optional<SourceFile>();
  PROFANA_ASSIGN_OR_RETURN(InputFile file, InputFile::Open(path));
  return ReadSourceFile(file, trace, limits);
}

Result<std::optional<SourceFile>> ReadSourceFile(const InputFile& file, const Trace& trace,
                                                 const InputLimits& limits) {
  if (!file.regular() || !trace.metadata.container.empty() || !IsJsonText(trace.metadata.format))
    return std::optional<SourceFile>();
  PROFANA_ASSIGN_OR_RETURN(InputBuffer bytes, ReadInput(file, limits));
  PROFANA_ASSIGN_OR_RETURN(SourceEvents events, ScanSourceEvents(bytes, trace));
  return std::optional<SourceFile>(SourceFile{std::move(bytes), std::move(events)});
}

}  // namespace profana::json
