// JsonWriter: the one way profana writes JSON documents (reports, overlays, summary files):
// escaping, commas and numbers handled, and a layout chosen once per document. It never allocates
// per value beyond the output string.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace profana {

enum class JsonLayout {
  kIndented,  // every value on a line of its own, two spaces per level (the reports)
  kCompact,   // no space at all: {"a":1,"b":[1,2]} (values inside other text)
  kSpaced,    // {"a": 1, "b": [1, 2]} on one line, broken only where Break() asks (summaries)
};

class JsonWriter {
 public:
  explicit JsonWriter(std::string* out, JsonLayout layout = JsonLayout::kIndented)
      : out_(out), layout_(layout) {}

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(std::string_view key);
  JsonWriter& String(std::string_view value);
  JsonWriter& Int(int64_t value);
  JsonWriter& UInt(uint64_t value);
  JsonWriter& Double(double value);  // shortest round-trip text; non-finite as null
  JsonWriter& Micros(int64_t ns);    // nanoseconds as microseconds, exact to the nanosecond
  JsonWriter& Bool(bool value);
  JsonWriter& Null();
  // kSpaced: the next key or value starts a new line, `indent` spaces in (after its comma).
  JsonWriter& Break(int indent);

 private:
  void BeforeValue();
  void Newline(size_t indent);
  void EndContainer(char close);

  std::string* out_;
  JsonLayout layout_;
  std::vector<bool> has_items_;  // per open container
  bool after_key_ = false;
  int break_ = -1;  // the indent Break() asked for; < 0: none
};

}  // namespace profana
