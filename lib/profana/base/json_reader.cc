#include "profana/base/json_reader.h"

#include "fmt/format.h"

namespace profana {

void JsonReader::Fail(std::string_view where, std::string_view what) {
  if (ok()) fault_ = fmt::format("{}: {}", where, what);
}

void JsonReader::FailAt(const char* at, std::string_view what) {
  if (!ok()) return;
  if (!at || at < text_.data() || at > text_.data() + text_.size()) {
    fault_ = std::string(what);
    return;
  }
  size_t offset = static_cast<size_t>(at - text_.data()), line = 1, column = 1;
  for (size_t i = 0; i < offset; ++i) {
    if (text_[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) {
      ++column;  // columns count characters, not the continuation bytes of UTF-8
    }
  }
  fault_ = fmt::format("byte {} (line {}, column {}): {}", offset + skipped_, line, column, what);
}

const char* JsonReader::Where(simdjson::ondemand::value& v) {
  const char* at = nullptr;
  return v.current_location().get(at) ? nullptr : at;
}

const char* JsonReader::Where(simdjson::ondemand::document& doc) {
  const char* at = nullptr;
  return doc.current_location().get(at) ? nullptr : at;
}

JsonReader::element JsonReader::Field(object o, std::string_view key, const std::string& where) {
  element e;
  // After a fault, objects read from then on are empty (a null document): not looked into.
  if (!ok()) return e;
  if (o[key].get(e)) Fail(where, fmt::format("no \"{}\"", key));
  return e;
}

int64_t JsonReader::Int(object o, std::string_view key, const std::string& where) {
  int64_t v = 0;
  element e = Field(o, key, where);
  if (ok() && e.get_int64().get(v)) Fail(where + "." + std::string(key), "expected an integer");
  return v;
}

double JsonReader::Double(object o, std::string_view key, const std::string& where) {
  double v = 0;
  element e = Field(o, key, where);
  if (ok() && e.get_double().get(v)) Fail(where + "." + std::string(key), "expected a number");
  return v;
}

bool JsonReader::Bool(object o, std::string_view key, const std::string& where) {
  bool v = false;
  element e = Field(o, key, where);
  if (ok() && e.get_bool().get(v)) Fail(where + "." + std::string(key), "expected true or false");
  return v;
}

std::string_view JsonReader::String(object o, std::string_view key, const std::string& where) {
  std::string_view v;
  element e = Field(o, key, where);
  if (ok() && e.get_string().get(v)) Fail(where + "." + std::string(key), "expected a string");
  return v;
}

JsonReader::array JsonReader::Array(object o, std::string_view key, const std::string& where) {
  array v;
  element e = Field(o, key, where);
  if (ok() && e.get_array().get(v)) Fail(where + "." + std::string(key), "expected an array");
  return v;
}

JsonReader::object JsonReader::Object(element e, const std::string& where) {
  object v;
  if (ok() && e.get_object().get(v)) Fail(where, "expected an object");
  return v;
}

bool JsonReader::OptionalBool(object o, std::string_view key, const std::string& where) {
  element e;
  if (!ok() || o[key].get(e)) return false;
  bool v = false;
  if (e.get_bool().get(v)) Fail(where + "." + std::string(key), "expected true or false");
  return v;
}

uint64_t JsonReader::OptionalUInt(object o, std::string_view key, const std::string& where) {
  element e;
  if (!ok() || o[key].get(e)) return 0;
  uint64_t v = 0;
  if (e.get_uint64().get(v))
    Fail(where + "." + std::string(key), "expected an integer of at least 0");
  return v;
}

int64_t JsonReader::OptionalCount(object o, std::string_view key, const std::string& where) {
  element e = Field(o, key, where);
  if (!ok() || e.is_null()) return -1;
  int64_t v = 0;
  if (e.get_int64().get(v) || v < 0)
    Fail(where + "." + std::string(key), "expected an integer >= 0 or null");
  return v;
}

std::pair<int64_t, int64_t> JsonReader::Pair(element e, const std::string& where) {
  array a;
  int64_t x = 0, y = 0;
  if (!ok()) return {0, 0};
  if (e.get_array().get(a) || a.size() != 2 || a.at(0).get_int64().get(x) ||
      a.at(1).get_int64().get(y))
    Fail(where, "expected [integer, integer]");
  return {x, y};
}

}  // namespace profana
