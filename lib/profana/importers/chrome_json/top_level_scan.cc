#include "profana/importers/chrome_json/top_level_scan.h"

#include "profana/importers/chrome_json/json_errors.h"

namespace profana::json {
namespace {

size_t SkipSpace(std::string_view t, size_t pos) {
  while (pos < t.size() && IsJsonSpace(t[pos])) ++pos;
  return pos;
}

// t[pos] is '"'. Sets *end one past the closing quote.
TopScan SkipString(std::string_view t, size_t pos, size_t* end, bool* has_escape) {
  for (size_t i = pos + 1; i < t.size(); ++i) {
    if (t[i] == '\\') {
      *has_escape = true;
      ++i;
    } else if (t[i] == '"') {
      *end = i + 1;
      return TopScan::kOk;
    }
  }
  return TopScan::kNeedMore;
}

// One JSON value starting at t[pos]; its text is validated later by the parser.
TopScan SkipValue(std::string_view t, size_t pos, size_t* end) {
  if (pos >= t.size()) return TopScan::kNeedMore;
  bool escape = false;  // a value's escapes do not matter here
  if (t[pos] == '"') return SkipString(t, pos, end, &escape);
  if (t[pos] == '{' || t[pos] == '[') {
    size_t length = EndOfTopLevelValue(t.substr(pos));
    if (length == std::string_view::npos) return TopScan::kNeedMore;
    *end = pos + length;
    return TopScan::kOk;
  }
  for (size_t i = pos; i < t.size(); ++i) {
    char c = t[i];
    if (IsJsonSpace(c) || c == ',' || c == '}' || c == ']') {
      if (i == pos) return TopScan::kUnsupported;
      *end = i;
      return TopScan::kOk;
    }
  }
  return TopScan::kNeedMore;
}

// Reads `"key": value` at t[pos]. The events member stops at its '['.
TopScan ReadMember(std::string_view t, size_t pos, size_t* end, bool* is_events,
                   std::string* members) {
  if (pos >= t.size()) return TopScan::kNeedMore;
  if (t[pos] != '"') return TopScan::kUnsupported;
  size_t key_end;
  bool escape = false;
  TopScan s = SkipString(t, pos, &key_end, &escape);
  if (s != TopScan::kOk) return s;
  if (escape) return TopScan::kUnsupported;
  *is_events = t.substr(pos, key_end - pos) == "\"traceEvents\"";
  size_t colon = SkipSpace(t, key_end);
  if (colon >= t.size()) return TopScan::kNeedMore;
  if (t[colon] != ':') return TopScan::kUnsupported;
  size_t value = SkipSpace(t, colon + 1);
  if (value >= t.size()) return TopScan::kNeedMore;
  if (*is_events) {
    if (t[value] != '[') return TopScan::kUnsupported;
    *end = value + 1;
    return TopScan::kOk;
  }
  s = SkipValue(t, value, end);
  if (s != TopScan::kOk) return s;
  if (!members->empty()) members->push_back(',');
  members->append(t.substr(pos, *end - pos));
  return TopScan::kOk;
}

}  // namespace

bool IsJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

TopScan FindEventsStart(std::string_view t, EventsStart* out) {
  out->members.clear();
  size_t pos = SkipSpace(t, 0);
  if (pos >= t.size()) return TopScan::kNeedMore;
  if (t[pos] == '[') {
    out->is_object = false;
    out->events_begin = pos + 1;
    return TopScan::kOk;
  }
  if (t[pos] != '{') return TopScan::kUnsupported;
  out->is_object = true;
  pos = SkipSpace(t, pos + 1);
  for (;;) {
    size_t end;
    bool is_events = false;
    TopScan s = ReadMember(t, pos, &end, &is_events, &out->members);
    if (s != TopScan::kOk) return s;
    if (is_events) {
      out->events_begin = end;
      return TopScan::kOk;
    }
    pos = SkipSpace(t, end);
    if (pos >= t.size()) return TopScan::kNeedMore;
    if (t[pos] != ',') return TopScan::kUnsupported;  // '}' here: no events, an error to report
    pos = SkipSpace(t, pos + 1);
  }
}

TopScan ReadAfterEvents(std::string_view t, bool is_object, std::string* members) {
  members->clear();
  size_t pos = SkipSpace(t, 0);
  if (is_object) {
    while (pos < t.size() && t[pos] == ',') {
      size_t end;
      bool is_events = false;
      TopScan s = ReadMember(t, SkipSpace(t, pos + 1), &end, &is_events, members);
      if (s != TopScan::kOk || is_events) return TopScan::kUnsupported;
      pos = SkipSpace(t, end);
    }
    if (pos >= t.size() || t[pos] != '}') return TopScan::kUnsupported;
    pos = SkipSpace(t, pos + 1);
  }
  return pos == t.size() ? TopScan::kOk : TopScan::kUnsupported;
}

}  // namespace profana::json
