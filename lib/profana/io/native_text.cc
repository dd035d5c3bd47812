#include "profana/io/native_text.h"

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "fmt/format.h"
#include "profana/base/json_string.h"
#include "profana/io/native_format.h"
#include "profana/io/native_reader.h"
#include "profana/io/native_records.h"

namespace profana::native {
namespace {

// A column's value as the text twin writes it: an integer, or a double in its shortest form
// that reads back as the same double.
template <typename T>
std::string AsText(const T& v) {
  if constexpr (std::is_same_v<T, double>)
    return fmt::format("{}", v);
  else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>)
    return fmt::format("{}", static_cast<int64_t>(v));
  else
    return fmt::format("{}", v.value);
}

// Splits a line into tokens: bare words, and JSON strings (kept quoted) as single tokens.
bool Tokens(std::string_view line, std::vector<std::string_view>* out) {
  out->clear();
  size_t i = 0;
  while (i < line.size()) {
    if (line[i] == ' ') {
      ++i;
      continue;
    }
    size_t start = i;
    if (line[i] == '"' || line[i] == '[') {
      // A JSON string or a list of them: find its end by scanning strings.
      char close = line[i] == '"' ? '"' : ']';
      bool in_string = line[i] == '"';
      for (++i; i < line.size(); ++i) {
        if (in_string && line[i] == '\\') {
          ++i;
          continue;
        }
        if (line[i] == '"') {
          in_string = !in_string;
          if (close == '"' && !in_string) break;
        } else if (!in_string && line[i] == close)
          break;
      }
      if (i >= line.size()) return false;
      ++i;
    } else {
      while (i < line.size() && line[i] != ' ') ++i;
    }
    out->push_back(line.substr(start, i - start));
  }
  return true;
}

bool ParseInt(std::string_view token, int64_t* v) {
  std::string s(token);
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  long long x = std::strtoll(s.c_str(), &end, 10);
  if (errno || *end) return false;
  *v = x;
  return true;
}

bool ParseString(std::string_view token, std::string* out) {
  size_t used = 0;
  return ParseJsonString(token, out, &used) && used == token.size();
}

bool ParseStringList(std::string_view token, std::vector<std::string>* out) {
  out->clear();
  if (token.size() < 2 || token.front() != '[' || token.back() != ']') return false;
  std::string_view rest = token.substr(1, token.size() - 2);
  std::string s;
  while (!rest.empty()) {
    while (!rest.empty() && (rest[0] == ' ' || rest[0] == ',')) rest.remove_prefix(1);
    if (rest.empty()) break;
    size_t used;
    if (!ParseJsonString(rest, &s, &used)) return false;
    out->push_back(s);
    rest.remove_prefix(used);
  }
  return true;
}

bool ParseDouble(std::string_view token, double* v) {
  std::string s(token);
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  *v = std::strtod(s.c_str(), &end);
  return !errno && !*end;
}

bool ParseIntList(std::string_view token, std::vector<int64_t>* out) {
  out->clear();
  if (token.size() < 2 || token.front() != '[' || token.back() != ']') return false;
  std::string_view rest = token.substr(1, token.size() - 2);
  while (!rest.empty()) {
    while (!rest.empty() && (rest[0] == ' ' || rest[0] == ',')) rest.remove_prefix(1);
    size_t end = rest.find_first_of(", ");
    if (rest.empty()) break;
    int64_t v;
    if (!ParseInt(rest.substr(0, end), &v)) return false;
    out->push_back(v);
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
  }
  return true;
}

std::string Quote(std::string_view s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

}  // namespace

bool SniffNativeText(std::string_view first_bytes) {
  return first_bytes.substr(0, kTextMagic.size()) == kTextMagic;
}

std::string WriteNativeText(const Trace& t) {
  std::string out = fmt::format(
      "{} {}\n# profana native format, text twin (docs/native-format.md)\n", kTextMagic, kVersion);
  ForEachMetadataField(t.metadata, [&](const char* key, const auto& v) {
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<T, std::string>) {
      out += fmt::format("metadata {} {}\n", key, Quote(v));
    } else if constexpr (std::is_same_v<T, TraceFormat>) {
      out += fmt::format("metadata {} {}\n", key, Quote(TraceFormatName(v)));
    } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      std::string list = "[";
      for (size_t i = 0; i < v.size(); ++i) list += (i ? ", " : "") + Quote(v[i]);
      out += fmt::format("metadata {} {}]\n", key, list);
    } else {
      out += fmt::format("metadata {} {}\n", key, static_cast<int64_t>(v));
    }
  });
  for (const auto& [key, values] : DevicePropertyLists(t.metadata))
    out += fmt::format("metadata {} [{}]\n", key, fmt::join(values, ", "));
  for (size_t k = 0; k < kDiagnosticKinds; ++k) {
    auto kind = static_cast<DiagnosticKind>(k);
    if (t.diagnostics.count(kind))
      out += fmt::format("diagnostic {} {}\n", DiagnosticName(kind), t.diagnostics.count(kind));
  }
  for (const DiagnosticSample& s : t.diagnostics.samples())
    out += fmt::format("sample {} {} {} {}\n", DiagnosticName(s.kind),
                       static_cast<int64_t>(s.byte_offset), s.event_index, Quote(s.detail));
  for (uint32_t i = 1; i < t.strings.size(); ++i)
    out += fmt::format("string {} {}\n", i, Quote(t.str(StringId(i))));
  out += "columns threads pid tid pid_text tid_text name process_name\n";
  for (const ThreadInfo& th : t.threads)
    out += fmt::format("threads {} {} {} {} {} {}\n", th.pid, th.tid, th.pid_text.value,
                       th.tid_text.value, th.name.value, th.process_name.value);
  // Rows of each table: a header line naming the columns, then one line per row.
  std::string table, header;
  std::vector<std::vector<std::string>> columns;
  auto flush = [&] {
    if (columns.empty()) return;
    out += header + "\n";
    for (size_t r = 0; r < columns[0].size(); ++r) {
      out += table;
      for (const auto& c : columns) out += fmt::format(" {}", c[r]);
      out += '\n';
    }
    columns.clear();
  };
  ForEachColumnSection(t, [&](const ColumnInfo& c, const auto& column) {
    if (c.table != table) {
      flush();
      table = c.table;
      header = "columns " + table;
    }
    header += fmt::format(" {}", c.name);
    std::vector<std::string> values(column.size());
    for (size_t i = 0; i < column.size(); ++i) values[i] = AsText(column[i]);
    columns.push_back(std::move(values));
  });
  flush();
  return out;
}

Result<Trace> ReadNativeText(std::string_view text, const std::string& name) {
  Trace t;
  t.stacks.parent.clear();
  t.stacks.frame.clear();
  t.stacks.depth.clear();
  auto bad = [&](size_t line, const std::string& what) {
    return Status(ErrorCode::kMalformed, fmt::format("{}: line {}: {}", name, line, what));
  };
  std::vector<std::string_view> tok;
  std::string s;
  std::string table;  // of the last "columns" line
  std::vector<std::string> header;
  size_t line_no = 0;
  int64_t version = kVersion;
  std::vector<int64_t> numbers;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (line_no == 1) {
      if (!SniffNativeText(line))
        return Status(ErrorCode::kBadMagic,
                      fmt::format("{}: line 1: not a profana native text file", name));
      if (!Tokens(line, &tok) || tok.size() != 2 || !ParseInt(tok[1], &version))
        return bad(1, "expected \"profana-native-text VERSION\"");
      if (version < 1 || version > kVersion)
        return Status(ErrorCode::kUnsupportedVersion,
                      fmt::format("{}: line 1: text twin version {}; this profana reads version {}",
                                  name, version, kVersion));
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    if (!Tokens(line, &tok) || tok.empty()) return bad(line_no, "unterminated string or list");
    std::string_view kind = tok[0];
    if (kind == "metadata") {
      if (tok.size() != 3) return bad(line_no, "expected \"metadata KEY VALUE\"");
      if (tok[1].substr(0, 7) == "device.") {  // a device property: one value per device
        if (!ParseIntList(tok[2], &numbers) || numbers.size() != t.metadata.devices.size())
          return bad(line_no, fmt::format("metadata {}: expected a list of {} integers, one per "
                                          "device",
                                          tok[1], t.metadata.devices.size()));
        SetDevicePropertyList(tok[1], numbers, &t.metadata);
        continue;
      }
      bool good = true;
      ForEachMetadataField(t.metadata, [&](const char* key, auto& field) {
        using T = std::decay_t<decltype(field)>;
        if (tok[1] != key) return;
        if constexpr (std::is_same_v<T, std::string>) {
          good = ParseString(tok[2], &field);
        } else if constexpr (std::is_same_v<T, TraceFormat>) {
          std::string name;
          good = ParseString(tok[2], &name);
          field = TraceFormatNamed(name);
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          good = ParseStringList(tok[2], &field);
        } else {
          int64_t v;
          good = ParseInt(tok[2], &v);
          field = static_cast<T>(v);
        }
      });
      if (!good) return bad(line_no, fmt::format("bad value for metadata {}", tok[1]));
    } else if (kind == "diagnostic") {
      int64_t n;
      DiagnosticKind k;
      if (tok.size() != 3 || !ParseInt(tok[2], &n))
        return bad(line_no, "expected \"diagnostic NAME COUNT\"");
      if (DiagnosticKindByName(tok[1], &k)) t.diagnostics.SetCount(k, static_cast<uint64_t>(n));
    } else if (kind == "sample") {
      int64_t offset, index;
      DiagnosticKind k;
      if (tok.size() != 5 || !ParseInt(tok[2], &offset) || !ParseInt(tok[3], &index) ||
          !ParseString(tok[4], &s))
        return bad(line_no, "expected \"sample NAME BYTE_OFFSET EVENT_INDEX \\\"DETAIL\\\"\"");
      if (DiagnosticKindByName(tok[1], &k))
        t.diagnostics.AddSample(DiagnosticSample{k, static_cast<uint64_t>(offset), index, s});
    } else if (kind == "string") {
      int64_t id;
      if (tok.size() != 3 || !ParseInt(tok[1], &id) || !ParseString(tok[2], &s))
        return bad(line_no, "expected \"string ID \\\"TEXT\\\"\"");
      if (id != static_cast<int64_t>(t.strings.size()) || s.empty() ||
          t.strings.Intern(s).value != id)
        return bad(line_no,
                   fmt::format("string {} must be the next id ({}), non-empty and not a repeat", id,
                               t.strings.size()));
    } else if (kind == "columns") {
      if (tok.size() < 2) return bad(line_no, "expected \"columns TABLE NAME...\"");
      table = std::string(tok[1]);
      header.assign(tok.begin() + 2, tok.end());
      std::vector<std::string> want;
      if (table == "threads") want = {"pid", "tid", "pid_text", "tid_text", "name", "process_name"};
      ForEachColumnSection(t, [&](const ColumnInfo& c, auto&) {
        if (table == c.table && SinceVersion(c) <= version) want.push_back(c.name);
      });
      if (header != want)
        return bad(line_no, fmt::format("columns of table \"{}\" are not this version's", table));
    } else if (kind == table) {
      if (tok.size() != header.size() + 1)
        return bad(line_no, fmt::format("{} values, expected {}", tok.size() - 1, header.size()));
      if (table == "threads") {
        std::vector<int64_t> v(header.size());
        for (size_t i = 0; i < v.size(); ++i)
          if (!ParseInt(tok[i + 1], &v[i]))
            return bad(line_no, fmt::format("column {}: not an integer", header[i]));
        auto id = [](int64_t x) { return StringId(static_cast<uint32_t>(x)); };
        for (size_t i = 2; i < 6; ++i)
          if (v[i] < 0 || v[i] > UINT32_MAX)
            return bad(line_no, fmt::format("column {}: out of range", header[i]));
        t.threads.push_back(ThreadInfo{v[0], v[1], id(v[2]), id(v[3]), id(v[4]), id(v[5])});
        continue;
      }
      size_t i = 0;
      bool good = true;
      std::string why;  // a value that does not parse, named; empty for one out of range
      ForEachColumnSection(t, [&](const ColumnInfo& c, auto& column) {
        if (table != c.table || !good || SinceVersion(c) > version) return;
        using T = std::decay_t<decltype(column[0])>;
        std::string_view token = tok[++i];
        if constexpr (std::is_same_v<T, double>) {
          double d = 0;
          good = ParseDouble(token, &d);
          if (!good) why = fmt::format("column {}: not a number", c.name);
          column.push_back(d);
        } else {
          int64_t x = 0;
          if (!ParseInt(token, &x)) {
            good = false;
            why = fmt::format("column {}: not an integer", c.name);
            return;
          }
          if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
            using U =
                std::conditional_t<std::is_enum_v<T>, std::underlying_type<T>, std::common_type<T>>;
            using I = typename U::type;
            if (x < static_cast<int64_t>(std::numeric_limits<I>::min()) ||
                (std::is_same_v<I, uint64_t>
                     ? false
                     : x > static_cast<int64_t>(std::numeric_limits<I>::max())))
              good = false;
            column.push_back(static_cast<T>(static_cast<I>(x)));
          } else {
            if (x < 0 || x > UINT32_MAX) good = false;
            column.push_back(T(static_cast<uint32_t>(x)));
          }
        }
      });
      if (!good) return bad(line_no, why.empty() ? "a value is out of its column's range" : why);
    } else {
      return bad(line_no, fmt::format("unknown line kind \"{}\"", kind));
    }
  }
  if (line_no == 0)
    return Status(ErrorCode::kBadMagic,
                  fmt::format("{}: line 1: not a profana native text file", name));
  CompleteDeviceProperties(&t.metadata);
  // A version 1 twin: no event has device args.
  if (t.events.device_args.size() == 0)
    t.events.device_args = Column<uint32_t>::Uniform(t.events.size(), kNoDeviceArgs);
  if (Status st = ValidateTables(t); !st.ok())
    return Status(st.code(), fmt::format("{}: {}", name, st.message()));
  RestoreTimeOrigin(&t);
  return t;
}

}  // namespace profana::native
